//! `.gz` and `.br` copies of every text file, for hosts that serve
//! precompressed files (nginx, Caddy), made on every core and cached by content
//! on disk. The levels come from size against time measured in
//! tests/bench/compression_levels.rs: past them, each level costs several times
//! the time for a percent or two.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::output::file::{OutputFile, write_whole};
use crate::text::hex;

const TEXT_EXTENSIONS: &[&str] = &["html", "css", "js", "svg", "xml", "txt", "json"];

/// zlib's default: within 0.3 % of the best size here, as fast or faster.
pub const GZIP_LEVEL: u32 = 6;
/// Within 2 % of quality 9's size at a twelfth of its time; 10 and 11 save 7 %
/// more at 25 to 40 times the time (a second for the React chunk).
pub const BROTLI_QUALITY: i32 = 5;
/// Scripts are compressed once per content (then cached), and a slow phone
/// waits for them before an island works: at 11 the React chunk is 59 KB, not
/// 65 KB, about 30 ms less at 1.6 Mbps.
pub const SCRIPT_BROTLI_QUALITY: i32 = 11;

/// Text, which hosting serves compressed.
pub fn is_text(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| TEXT_EXTENSIONS.contains(&ext))
}

fn brotli_quality(path: &str) -> i32 {
    if path.ends_with(".js") {
        SCRIPT_BROTLI_QUALITY
    } else {
        BROTLI_QUALITY
    }
}

type Compressed = Arc<(Vec<u8>, Vec<u8>)>;
type Key = [u8; 32];

#[derive(Debug, Clone, Default)]
pub struct Compressor {
    disk: Option<PathBuf>,
}

impl Compressor {
    pub fn with_disk_cache(dir: PathBuf) -> Compressor {
        Compressor { disk: Some(dir) }
    }

    /// One file per content: the gzip form's length (8 bytes, little endian),
    /// the gzip form, the brotli form. One file, not two: half the files to create.
    fn read_cached(&self, key: &Key) -> Option<Compressed> {
        let bytes = std::fs::read(self.disk.as_ref()?.join(hex(key))).ok()?;
        let (length, rest) = bytes.split_first_chunk::<8>()?;
        let length = usize::try_from(u64::from_le_bytes(*length)).ok()?;
        let gz = rest.get(..length)?.to_vec();
        let br = rest.get(length..)?.to_vec();
        Some(Arc::new((gz, br)))
    }

    /// Best effort: an unwritable cache only costs time.
    fn write_cached(&self, key: &Key, (gz, br): &(Vec<u8>, Vec<u8>)) {
        if let Some(dir) = &self.disk {
            let mut bytes = Vec::with_capacity(8 + gz.len() + br.len());
            bytes.extend_from_slice(&(gz.len() as u64).to_le_bytes());
            bytes.extend_from_slice(gz);
            bytes.extend_from_slice(br);
            let _ = write_whole(&dir.join(hex(key)), &bytes);
        }
    }

    pub fn precompressed(&self, files: &[OutputFile]) -> Vec<OutputFile> {
        let text: Vec<&OutputFile> = files.iter().filter(|f| is_text(&f.path)).collect();
        let keys: Vec<Key> = text
            .par_iter()
            .map(|f| key(&f.contents, brotli_quality(&f.path)))
            .collect();
        let found: Vec<Option<Compressed>> =
            keys.par_iter().map(|key| self.read_cached(key)).collect();
        // Each missing content once, even if files share it.
        let mut seen = HashSet::new();
        let missing: Vec<(Key, &OutputFile)> = text
            .iter()
            .zip(&keys)
            .zip(&found)
            .filter(|((_, key), found)| found.is_none() && seen.insert(**key))
            .map(|((file, key), _)| (*key, *file))
            .collect();
        if !missing.is_empty()
            && let Some(dir) = &self.disk
        {
            let _ = std::fs::create_dir_all(dir);
        }
        // gzip and brotli of one file apart, so the React chunk does not hold
        // up the build's end on one core.
        let made: HashMap<Key, Compressed> = missing
            .par_iter()
            .map(|(key, file)| {
                let quality = brotli_quality(&file.path);
                let pair = rayon::join(
                    || gzip(&file.contents, GZIP_LEVEL),
                    || brotli(&file.contents, quality),
                );
                self.write_cached(key, &pair);
                (*key, Arc::new(pair))
            })
            .collect();
        let compressed: Vec<(&OutputFile, Compressed)> = text
            .iter()
            .zip(keys)
            .zip(found)
            .filter_map(|((file, key), found)| {
                let pair = found.or_else(|| made.get(&key).cloned())?;
                Some((*file, pair))
            })
            .collect();
        // Moved into the output, not copied: memory holds one copy of each pair.
        drop(made);
        let mut out = Vec::with_capacity(compressed.len() * 2);
        for (file, pair) in compressed {
            let (gz, br) = Arc::try_unwrap(pair).unwrap_or_else(|shared| (*shared).clone());
            out.push(OutputFile {
                path: format!("{}.gz", file.path),
                contents: gz,
            });
            out.push(OutputFile {
                path: format!("{}.br", file.path),
                contents: br,
            });
        }
        out
    }
}

/// The hash of `contents` and the levels, so results at other levels are never reused.
fn key(contents: &[u8], brotli_quality: i32) -> Key {
    Sha256::new()
        .chain_update(format!("gzip {GZIP_LEVEL}, brotli {brotli_quality}\n"))
        .chain_update(contents)
        .finalize()
        .into()
}

pub fn gzip(bytes: &[u8], level: u32) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

pub fn brotli(bytes: &[u8], quality: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: 22,
        ..Default::default()
    };
    let _ = brotli::BrotliCompress(&mut &bytes[..], &mut out, &params);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn text_files_get_both_copies_that_decompress_to_the_original() {
        let files = vec![
            OutputFile::text("index.html", "<p>hello hello hello</p>".repeat(50)),
            OutputFile {
                path: "favicon.png".into(),
                contents: vec![0, 1, 2],
            },
        ];
        let cache = tempfile::tempdir().unwrap();
        let out = Compressor::with_disk_cache(cache.path().to_path_buf()).precompressed(&files);
        // A second compressor finds the same results on disk.
        let again = Compressor::with_disk_cache(cache.path().to_path_buf()).precompressed(&files);
        assert_eq!(out, again);
        assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 1);
        let names: Vec<&str> = out.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["index.html.gz", "index.html.br"]);
        let mut text = String::new();
        flate2::read::GzDecoder::new(&out[0].contents[..])
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text.as_bytes(), files[0].contents);
        let mut text = Vec::new();
        brotli::BrotliDecompress(&mut &out[1].contents[..], &mut text).unwrap();
        assert_eq!(text, files[0].contents);
    }

    #[test]
    fn results_come_from_the_disk_cache_and_a_cut_off_entry_is_made_again() {
        let files = vec![OutputFile::text("a.html", "<p>x</p>".repeat(40))];
        let cache = tempfile::tempdir().unwrap();
        let compressor = || Compressor::with_disk_cache(cache.path().to_path_buf());
        let first = compressor().precompressed(&files);
        let entries: Vec<_> = std::fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let [entry] = &entries[..] else {
            panic!("one cache entry expected: {entries:?}")
        };
        // A planted entry is what the next build uses: read, not made again.
        let mut planted = 8u64.to_le_bytes().to_vec();
        planted.extend_from_slice(b"gzipgzipbrotli");
        std::fs::write(entry, planted).unwrap();
        let second = compressor().precompressed(&files);
        assert_eq!(second[0].contents, b"gzipgzip");
        assert_eq!(second[1].contents, b"brotli");
        // An entry shorter than its length says is made again.
        let mut cut = 100u64.to_le_bytes().to_vec();
        cut.extend_from_slice(b"short");
        std::fs::write(entry, cut).unwrap();
        assert_eq!(compressor().precompressed(&files), first);
    }
}

//! `.gz` and `.br` copies beside every text file, for hosts that serve
//! precompressed files. Results are cached by content, in memory and in a
//! folder on disk, so a build only compresses what changed: brotli at its
//! best setting takes most of a second on the React chunk, which rarely does.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use crate::output_file::OutputFile;
use crate::text::hex;

const TEXT_EXTENSIONS: &[&str] = &["html", "css", "js", "svg", "xml", "txt", "json"];

/// The gzip and brotli forms of one file.
type Compressed = (Vec<u8>, Vec<u8>);

#[derive(Default)]
pub struct Compressor {
    cache: HashMap<[u8; 32], Compressed>,
    disk: Option<PathBuf>,
}

impl Compressor {
    /// A compressor that also keeps its results in `dir` across runs.
    pub fn with_disk_cache(dir: PathBuf) -> Compressor {
        Compressor {
            cache: HashMap::new(),
            disk: Some(dir),
        }
    }

    fn read_cached(&self, key: &[u8; 32]) -> Option<Compressed> {
        let base = self.disk.as_ref()?.join(hex(key));
        let gz = std::fs::read(base.with_extension("gz")).ok()?;
        let br = std::fs::read(base.with_extension("br")).ok()?;
        Some((gz, br))
    }

    /// Best effort: a cache that cannot be written only costs time.
    fn write_cached(&self, key: &[u8; 32], gz: &[u8], br: &[u8]) {
        if let Some(dir) = &self.disk {
            let base = dir.join(hex(key));
            // Written whole (temp file, then rename): an interrupted or
            // concurrent build must never leave a cut-off file to be reused.
            let write = |extension: &str, bytes: &[u8]| {
                let path = base.with_extension(extension);
                let temporary =
                    base.with_extension(format!("{extension}.{}.tmp", std::process::id()));
                std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, &path))
            };
            let _ = std::fs::create_dir_all(dir)
                .and_then(|()| write("gz", gz))
                .and_then(|()| write("br", br));
        }
    }

    /// The `.gz` and `.br` files for each text file in `files`.
    pub fn precompressed(&mut self, files: &[OutputFile]) -> Vec<OutputFile> {
        let text: Vec<&OutputFile> = files
            .iter()
            .filter(|f| {
                f.path
                    .rsplit_once('.')
                    .is_some_and(|(_, ext)| TEXT_EXTENSIONS.contains(&ext))
            })
            .collect();
        let keys: Vec<[u8; 32]> = text
            .iter()
            .map(|f| Sha256::digest(&f.contents).into())
            .collect();
        for key in &keys {
            if !self.cache.contains_key(key)
                && let Some(pair) = self.read_cached(key)
            {
                self.cache.insert(*key, pair);
            }
        }
        let missing: Vec<(usize, &OutputFile)> = text
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.cache.contains_key(&keys[*i]))
            .map(|(i, f)| (i, *f))
            .collect();
        // Brotli at its best setting is slow on large chunks; spread the work.
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let compressed: Vec<(usize, Compressed)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|worker| {
                    let mine: Vec<(usize, &OutputFile)> = missing
                        .iter()
                        .skip(worker)
                        .step_by(workers)
                        .copied()
                        .collect();
                    scope.spawn(move || {
                        mine.into_iter()
                            .map(|(i, f)| (i, (gzip(&f.contents), brotli(&f.contents))))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for (i, (gz, br)) in compressed {
            self.write_cached(&keys[i], &gz, &br);
            self.cache.insert(keys[i], (gz, br));
        }
        let mut out = Vec::with_capacity(text.len() * 2);
        for (file, key) in text.iter().zip(&keys) {
            if let Some((gz, br)) = self.cache.get(key) {
                out.push(OutputFile {
                    path: format!("{}.gz", file.path),
                    contents: gz.clone(),
                });
                out.push(OutputFile {
                    path: format!("{}.br", file.path),
                    contents: br.clone(),
                });
            }
        }
        out
    }
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

pub fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
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
        assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 2);
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
}

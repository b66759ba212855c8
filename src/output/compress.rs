//! `.gz` and `.br` copies beside every text file, for hosts that serve
//! precompressed files. Results are cached by content, so a rebuild only
//! compresses what changed (the JavaScript chunks rarely do).

use std::collections::HashMap;
use std::io::Write;

use sha2::{Digest, Sha256};

use crate::render::OutputFile;

const TEXT_EXTENSIONS: &[&str] = &["html", "css", "js", "svg", "xml", "txt", "json"];

#[derive(Default)]
pub struct Compressor {
    cache: HashMap<[u8; 32], (Vec<u8>, Vec<u8>)>,
}

impl Compressor {
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
        let missing: Vec<(usize, &OutputFile)> = text
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.cache.contains_key(&keys[*i]))
            .map(|(i, f)| (i, *f))
            .collect();
        // Brotli at its best setting is slow on large chunks; spread the work.
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let compressed: Vec<(usize, (Vec<u8>, Vec<u8>))> = std::thread::scope(|scope| {
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
        for (i, pair) in compressed {
            self.cache.insert(keys[i], pair);
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
        let out = Compressor::default().precompressed(&files);
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

//! Size against time for every gzip and brotli level, over the text files of
//! a built site: the figures behind the levels src/output/compress.rs uses.
//!
//!   cargo run --release --example compression_levels -- DIST [ROUNDS]
//!
//! DIST is a folder `curbside build` wrote. Files are grouped as pages
//! (`*.html`), scripts (`*.js`) and the rest; each level compresses each
//! group ROUNDS times (default 5) on one core, and the median time is shown.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const TEXT: &[&str] = &["html", "css", "js", "svg", "xml", "txt", "json"];

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dist = PathBuf::from(
        args.next()
            .ok_or("usage: compression_levels DIST [ROUNDS]")?,
    );
    let rounds: usize = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| format!("ROUNDS is not a number: {text}"))?,
        None => 5,
    };
    let mut groups: Vec<(&str, Vec<Vec<u8>>)> = vec![
        ("pages (*.html)", vec![]),
        ("scripts (*.js)", vec![]),
        ("other text", vec![]),
    ];
    collect(&dist, &mut groups)?;
    for (name, files) in &groups {
        let raw: usize = files.iter().map(Vec::len).sum();
        println!("\n{name}: {} files, {raw} bytes", files.len());
        println!(
            "{:<10} {:>10} {:>8} {:>10} {:>10}",
            "codec", "bytes", "ratio", "ms", "MB/s"
        );
        let gzip_levels = (1..=9).map(|level| (format!("gzip {level}"), Codec::Gzip(level)));
        let brotli_levels = (1..=11).map(|q| (format!("brotli {q}"), Codec::Brotli(q)));
        for (label, codec) in gzip_levels.chain(brotli_levels) {
            let mut times = Vec::with_capacity(rounds);
            let mut size = 0;
            for _ in 0..rounds {
                let started = Instant::now();
                size = files.iter().map(|f| codec.compress(f).len()).sum();
                times.push(started.elapsed());
            }
            times.sort();
            let median = times[times.len() / 2];
            println!(
                "{label:<10} {size:>10} {:>8.3} {:>10.1} {:>10.1}",
                size as f64 / raw.max(1) as f64,
                ms(median),
                raw as f64 / 1e6 / median.as_secs_f64().max(1e-9)
            );
        }
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn collect(dir: &Path, groups: &mut [(&str, Vec<Vec<u8>>)]) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|err| err.to_string())?.path();
        if path.is_dir() {
            collect(&path, groups)?;
            continue;
        }
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !TEXT.contains(&ext) {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let group = match ext {
            "html" => 0,
            "js" => 1,
            _ => 2,
        };
        groups[group].1.push(bytes);
    }
    Ok(())
}

enum Codec {
    Gzip(u32),
    Brotli(i32),
}

impl Codec {
    fn compress(&self, bytes: &[u8]) -> Vec<u8> {
        // The build's own compressors, at the level asked for.
        match *self {
            Codec::Gzip(level) => curbside::output::compress::gzip(bytes, level),
            Codec::Brotli(quality) => curbside::output::compress::brotli(bytes, quality),
        }
    }
}

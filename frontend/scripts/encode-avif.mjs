// @ts-check
// Encodes one AVIF copy for the Rust CLI with sharp (libaom), which makes
// smaller files than the Rust encoders at the same closeness to the photo.
//
//   node encode-avif.mjs WIDTH HEIGHT CHANNELS QUALITY EFFORT < pixels > file.avif
//
// stdin: the copy's pixels, already resized and in sRGB, 8 bits a channel,
// CHANNELS (3 or 4) to a pixel, row by row. stdout: the AVIF file, which holds
// no metadata. Any failure: a message on stderr and exit code 1.

import sharp from "sharp";

const [width = NaN, height = NaN, channels = NaN, quality = NaN, effort = NaN] = process.argv.slice(2).map(Number);
if (![width, height, quality, effort].every(Number.isInteger) || (channels !== 3 && channels !== 4)) {
  process.stderr.write("usage: encode-avif.mjs WIDTH HEIGHT CHANNELS(3|4) QUALITY EFFORT\n");
  process.exit(1);
}

// The CLI makes copies side by side, one a core; libvips's own threads would crowd them.
sharp.concurrency(1);

/** @type {Buffer[]} */
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pixels = Buffer.concat(chunks);
if (pixels.length !== width * height * channels) {
  process.stderr.write(`expected ${width * height * channels} bytes of pixels, got ${pixels.length}\n`);
  process.exit(1);
}

try {
  const file = await sharp(pixels, { raw: { width, height, channels } })
    .avif({ quality, effort })
    .toBuffer();
  process.stdout.write(file);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}

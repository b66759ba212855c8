// @ts-check
// Encodes AVIF copies for the Rust CLI with sharp (libaom), which makes smaller
// files than the Rust encoders at the same closeness to the photo. One process
// serves a whole build: the CLI starts it at the first AVIF copy and closes its
// stdin when the build is done.
//
//   node encode-avif.mjs < requests > replies
//
// A request is one JSON line, {"id", "width", "height", "channels" (3 or 4),
// "quality", "effort", "bytes"}, then `bytes` bytes of the copy's pixels,
// already resized and in sRGB, 8 bits a channel, row by row. Each is answered
// as soon as it is encoded (so not always in order) with one JSON line,
// {"id", "ok": true, "bytes"} followed by the AVIF file, which holds no
// metadata, or {"id", "ok": false, "error"}.

import sharp from "sharp";

// The CLI asks for copies side by side, one a core; libvips's own threads would crowd them.
sharp.concurrency(1);

/**
 * @typedef {{ id: number, width: number, height: number, channels: number, quality: number, effort: number, bytes: number }} Request
 */

/** What came in on stdin and is not yet taken, in the order it came. @type {Buffer[]} */
let chunks = [];
let buffered = 0;
/** The request whose pixels are still coming. @type {Request | null} */
let waitingFor = null;

/** The first `count` bytes buffered, taken out. @param {number} count */
function take(count) {
  const all = chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks, buffered);
  const rest = all.subarray(count);
  chunks = rest.length > 0 ? [rest] : [];
  buffered = rest.length;
  return all.subarray(0, count);
}

/** Where the first buffered line ends, or -1. */
function lineEnd() {
  let offset = 0;
  for (const chunk of chunks) {
    const at = chunk.indexOf(10);
    if (at >= 0) return offset + at;
    offset += chunk.length;
  }
  return -1;
}

/** @param {object} header @param {Buffer} [file] */
function reply(header, file) {
  const line = Buffer.from(`${JSON.stringify(header)}\n`);
  // One write a reply, so that replies finished together never interleave.
  process.stdout.write(file ? Buffer.concat([line, file]) : line);
}

/** @param {Request} request @param {Buffer} pixels */
async function encode(request, pixels) {
  const { id, width, height, channels, quality, effort } = request;
  try {
    if (![width, height, quality, effort].every(Number.isInteger) || (channels !== 3 && channels !== 4)) {
      throw new Error(`a request this script cannot read: ${JSON.stringify(request)}`);
    }
    if (pixels.length !== width * height * channels) {
      throw new Error(`expected ${width * height * channels} bytes of pixels, got ${pixels.length}`);
    }
    const file = await sharp(pixels, { raw: { width, height, channels } }).avif({ quality, effort }).toBuffer();
    reply({ id, ok: true, bytes: file.length }, file);
  } catch (err) {
    reply({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}

process.stdin.on("data", (chunk) => {
  chunks.push(chunk);
  buffered += chunk.length;
  for (;;) {
    if (!waitingFor) {
      const end = lineEnd();
      if (end < 0) return;
      const line = take(end + 1).toString("utf8");
      try {
        waitingFor = /** @type {Request} */ (JSON.parse(line));
      } catch {
        process.stderr.write(`encode-avif: a request that is not JSON: ${line.slice(0, 200)}\n`);
        process.exit(1);
      }
    }
    if (buffered < waitingFor.bytes) return;
    const request = waitingFor;
    waitingFor = null;
    void encode(request, take(request.bytes));
  }
});

// How the Python memory snapshot is kept: without its pages of zeros. About half of the 4 KiB pages
// of a started interpreter's memory are zero, and reading the stored bytes back from the site's
// cache is the slowest step of a return visit, so the zero pages are left out and put back, as
// zeros, when the snapshot is read (pyodide-worker.js).
//
// Layout, little-endian: the magic "WPZ1", the snapshot's length in bytes, the page size, the
// number of pages, then one bit per page (1: the page is stored; the bit field padded to a multiple
// of 4 bytes), then the stored pages in order (the last one may be shorter than a page).

const MAGIC = 0x315a5057; // "WPZ1"
const PAGE_BYTES = 4096;
const HEADER_BYTES = 16;

function pageCount(length) {
  return Math.ceil(length / PAGE_BYTES);
}

function bitFieldBytes(pages) {
  return Math.ceil(Math.ceil(pages / 8) / 4) * 4;
}

function isZero(words, from, to) {
  for (let index = from; index < to; index++) if (words[index] !== 0) return false;
  return true;
}

/** The snapshot `bytes` (a Uint8Array) without its zero pages, as a new ArrayBuffer. */
export function packPages(bytes) {
  const pages = pageCount(bytes.length);
  // A view in whole words; a last partial word is compared byte by byte.
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
  const stored = new Uint8Array(bitFieldBytes(pages));
  let storedBytes = 0;
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE_BYTES;
    const end = Math.min(start + PAGE_BYTES, bytes.length);
    const wordEnd = Math.floor(end / 4);
    let zero = isZero(words, start / 4, wordEnd);
    for (let index = wordEnd * 4; zero && index < end; index++) zero = bytes[index] === 0;
    if (!zero) {
      stored[page >> 3] |= 1 << (page & 7);
      storedBytes += end - start;
    }
  }
  const packed = new Uint8Array(HEADER_BYTES + stored.length + storedBytes);
  new Uint32Array(packed.buffer, 0, 4).set([MAGIC, bytes.length, PAGE_BYTES, pages]);
  packed.set(stored, HEADER_BYTES);
  let at = HEADER_BYTES + stored.length;
  for (let page = 0; page < pages; page++) {
    if (!(stored[page >> 3] & (1 << (page & 7)))) continue;
    const start = page * PAGE_BYTES;
    const end = Math.min(start + PAGE_BYTES, bytes.length);
    packed.set(bytes.subarray(start, end), at);
    at += end - start;
  }
  return packed.buffer;
}

/** The whole snapshot (a Uint8Array) from `buffer` as packPages made it; throws on anything else. */
export function unpackPages(buffer) {
  if (buffer.byteLength < HEADER_BYTES) throw new Error("the snapshot is too short");
  const [magic, length, pageBytes, pages] = new Uint32Array(buffer, 0, 4);
  if (magic !== MAGIC || pageBytes !== PAGE_BYTES || pages !== pageCount(length)) {
    throw new Error("the snapshot is not in the kept format");
  }
  const stored = new Uint8Array(buffer, HEADER_BYTES, Math.min(bitFieldBytes(pages), buffer.byteLength - HEADER_BYTES));
  const bytes = new Uint8Array(length);
  const source = new Uint8Array(buffer);
  let at = HEADER_BYTES + bitFieldBytes(pages);
  for (let page = 0; page < pages; page++) {
    if (!(stored[page >> 3] & (1 << (page & 7)))) continue;
    const start = page * PAGE_BYTES;
    const end = Math.min(start + PAGE_BYTES, length);
    if (at + end - start > buffer.byteLength) throw new Error("the snapshot is cut short");
    bytes.set(source.subarray(at, at + end - start), start);
    at += end - start;
  }
  if (at !== buffer.byteLength) throw new Error("the snapshot has bytes left over");
  return bytes;
}

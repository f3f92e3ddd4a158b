// What test_snapshot_pages.py asks Node (through tests/node_bridge.mjs): the stored form of the
// Python memory snapshot, site/src/snapshot-pages.js, on bytes given as {length, pages: {page: [byte
// offset in the page, value], ...}} (everything else zero).
import { packPages, unpackPages } from "../../site/src/snapshot-pages.js";

function bytesOf({ length, set }) {
  const bytes = new Uint8Array(length);
  for (const [at, value] of set) bytes[at] = value;
  return bytes;
}

function unpackError(buffer) {
  try {
    unpackPages(buffer);
    return null;
  } catch (error) {
    return error.message;
  }
}

export function answer(request) {
  switch (request.op) {
    case "round-trip": {
      const bytes = bytesOf(request);
      const packed = packPages(bytes);
      const back = unpackPages(packed);
      const same = back.length === bytes.length && back.every((value, index) => value === bytes[index]);
      return { packedLength: packed.byteLength, same };
    }
    case "damaged": {
      const packed = new Uint8Array(packPages(bytesOf(request)));
      const cut = packed.slice(0, packed.length - 1).buffer;
      const longer = new Uint8Array(packed.length + 4);
      longer.set(packed);
      const otherMagic = packed.slice();
      otherMagic[0] ^= 0xff;
      return { cut: unpackError(cut), longer: unpackError(longer.buffer), otherMagic: unpackError(otherMagic.buffer),
        raw: unpackError(bytesOf(request).buffer), empty: unpackError(new ArrayBuffer(0)) };
    }
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}

import { randomFillSync } from 'node:crypto';

let lastMs = -1;
let counter = 0;
// Random bytes drawn 4 KiB at a time: one system call per id would cost more than the rest.
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

// Two hex digits per byte value: formatting an id is then 16 lookups, with no Buffer in between.
const hexPairs = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function randomBytes16(): Uint8Array {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  return bytes;
}

function hexOf(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let index = from; index < to; index += 1) text += hexPairs[bytes[index] ?? 0] ?? '00';
  return text;
}

/**
 * A time-ordered UUID (version 7, RFC 9562) with a counter in `rand_a`, so the ids of one process
 * increase strictly. The default event id: stores index event ids, and ids that grow at the right
 * edge of an index append several times faster than random version 4 ids.
 */
export function uuidV7(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    counter += 1;
    // 4,096 ids within one millisecond: borrow the next millisecond rather than repeat.
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    counter = 0;
  }
  const bytes = randomBytes16();
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  return `${hexOf(bytes, 0, 4)}-${hexOf(bytes, 4, 6)}-${hexOf(bytes, 6, 8)}-${hexOf(bytes, 8, 10)}-${hexOf(bytes, 10, 16)}`;
}

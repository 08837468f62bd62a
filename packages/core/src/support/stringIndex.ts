/**
 * Chosen at random once per process, so that keys made to collide (ids a model or a stored stream
 * picks to flood one slot) cannot be made in advance. Only where keys sit in the table depends on
 * it: what a lookup returns never does.
 */
const seed = (Math.random() * 0x1_0000_0000) | 0;

/** Slots start at 16 and double when more than half are taken. */
const initialSlots = 16;

/**
 * An index from string keys to their positions in an append-only array of keys that the caller
 * owns: `keys[find(key)] === key`. Open addressing with linear probing over one `Int32Array` of
 * `[hash, position]` pairs: a lookup of a key that is not there reads one pair (one cache line),
 * where a `Map` reads a bucket, an entry and the key string of each entry in the chain. That miss
 * is what a fold of a long stream pays for every new tool-call id (SPEC EVT-4 "already used"), so
 * the fold's largest cost shrinks; the key string itself is read only when the full 32-bit hashes
 * match.
 */
export class StringIndex {
  #slots = new Int32Array(2 * initialSlots);
  #mask = initialSlots - 1;
  #size = 0;
  /** The last key hashed and its hash: a lookup is usually followed by an `add` of the same key. */
  #hashedKey: string | undefined;
  #hash = 0;

  constructor(private readonly keys: readonly string[]) {}

  /** How many keys were added. */
  get size(): number {
    return this.#size;
  }

  /** The position of `key` in the keys array, or -1 when it was never added. */
  find(key: string): number {
    const hash = this.#hashOf(key);
    const slots = this.#slots;
    const mask = this.#mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[2 * slot] as number;
      if (stored === 0) return -1;
      if (stored === hash) {
        const position = slots[2 * slot + 1] as number;
        if (this.keys[position] === key) return position;
      }
    }
  }

  /**
   * Records that `key`, which `find` does not know, is at `position` of the keys array. Adding a
   * key twice is a caller's bug: the index would keep the first position.
   */
  add(key: string, position: number): void {
    if (2 * (this.#size + 1) > this.#mask + 1) this.#grow();
    const hash = this.#hashOf(key);
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = hash & mask;
    while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = position;
    this.#size += 1;
  }

  /** Twice the slots, every pair moved to its place in the larger table (amortised O(1) an add). */
  #grow(): void {
    const old = this.#slots;
    const count = 2 * (this.#mask + 1);
    const slots = new Int32Array(2 * count);
    const mask = count - 1;
    for (let pair = 0; pair < old.length; pair += 2) {
      const hash = old[pair] as number;
      if (hash === 0) continue;
      let slot = hash & mask;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = hash;
      slots[2 * slot + 1] = old[pair + 1] as number;
    }
    this.#slots = slots;
    this.#mask = mask;
  }

  /** A seeded 32-bit FNV-1a of the UTF-16 code units, mixed; never 0 (0 marks an empty slot). */
  #hashOf(key: string): number {
    if (key === this.#hashedKey) return this.#hash;
    let hash = seed ^ key.length;
    for (let index = 0; index < key.length; index += 1)
      hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    hash ^= hash >>> 15;
    hash = Math.imul(hash, 0x2c1b3c6d);
    hash ^= hash >>> 12;
    if (hash === 0) hash = 1;
    this.#hashedKey = key;
    this.#hash = hash;
    return hash;
  }
}

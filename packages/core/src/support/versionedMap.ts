/** One write of a key: its sequence number, its value, and the write of the key before it. */
interface Version<V> {
  readonly seq: number;
  readonly value: V;
  readonly previous: Version<V> | undefined;
}

/** The storage of a versioned map: every write it has seen, in order, for one lineage of views. */
interface MapStore<V> {
  /** The newest write of each key; older ones hang off it. */
  readonly latest: Map<string, Version<V>>;
  /** Keys in the order of their first write, with the sequence number of that write. */
  readonly keys: string[];
  readonly firstWrites: number[];
  writes: number;
}

/**
 * A persistent string-keyed map shared by a lineage of states: a view sees the writes numbered
 * below its own `writes`. Writing through the newest view appends in place (O(1)); writing
 * through an older view copies what it sees first, so no view ever sees a value change.
 */
export interface MapView<V> {
  readonly store: MapStore<V>;
  readonly writes: number;
}

/** A view of an empty map. */
export function emptyMap<V>(): MapView<V> {
  return { store: { latest: new Map(), keys: [], firstWrites: [], writes: 0 }, writes: 0 };
}

/** The value `view` sees under `key`. */
export function mapGet<V>(view: MapView<V>, key: string): V | undefined {
  // The newest view finds its value first; an older one walks back a few versions at most.
  let version = view.store.latest.get(key);
  while (version !== undefined && version.seq >= view.writes) version = version.previous;
  return version?.value;
}

/** The view with `key` set to `value`; `view` itself still sees what it saw. */
export function mapSet<V>(view: MapView<V>, key: string, value: V): MapView<V> {
  const store = view.store.writes === view.writes ? view.store : branch(view);
  const seq = store.writes;
  const previous = store.latest.get(key);
  store.latest.set(key, { seq, value, previous });
  if (previous === undefined) {
    store.keys.push(key);
    store.firstWrites.push(seq);
  }
  store.writes = seq + 1;
  return { store, writes: seq + 1 };
}

/** Every key `view` sees with its value, in the order the keys were first written. */
export function mapEntries<V>(view: MapView<V>): [string, V][] {
  const { keys, firstWrites } = view.store;
  const entries: [string, V][] = [];
  for (let index = 0; index < keys.length; index += 1) {
    if ((firstWrites[index] as number) >= view.writes) break;
    const key = keys[index] as string;
    entries.push([key, mapGet(view, key) as V]);
  }
  return entries;
}

/** A store of its own for an older view: the newest version each key had for it. */
function branch<V>(view: MapView<V>): MapStore<V> {
  const copy: MapStore<V> = { latest: new Map(), keys: [], firstWrites: [], writes: view.writes };
  const { keys, firstWrites, latest } = view.store;
  for (let index = 0; index < keys.length; index += 1) {
    if ((firstWrites[index] as number) >= view.writes) break;
    const key = keys[index] as string;
    let version = latest.get(key);
    while (version !== undefined && version.seq >= view.writes) version = version.previous;
    // Older versions stay reachable through `previous`: views older still may need them.
    if (version !== undefined) copy.latest.set(key, version);
    copy.keys.push(key);
    copy.firstWrites.push(firstWrites[index] as number);
  }
  return copy;
}

import { StringIndex } from './stringIndex.js';

/** One write of a key: its sequence number, its value, and the write of the key before it. */
interface Version<V> {
  readonly seq: number;
  /** Replaced in place only while no published view can see this write (see `mapSet`). */
  value: V;
  readonly previous: Version<V> | undefined;
}

/** The storage of a versioned map: every write it has seen, in order, for one lineage of views. */
interface MapStore<V> {
  /** Keys in the order of their first write, with the sequence number of that write. */
  readonly keys: string[];
  readonly firstWrites: number[];
  /** The newest write of each key, at the key's position in `keys`; older ones hang off it. */
  readonly latest: Version<V>[];
  /** Where each key is in `keys`. */
  readonly index: StringIndex;
  writes: number;
  /** Writes numbered below this one may be seen by a published view: they never change. */
  frozen: number;
  /** The last key looked up and its newest write: a check and a fold read the same key in turn. */
  memoKey: string | undefined;
  memoVersion: Version<V> | undefined;
  /** The memo key's position in `keys`, or -1 when the store does not hold it. */
  memoPosition: number;
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
  return { store: newStore(0), writes: 0 };
}

/** The value `view` sees under `key`. */
export function mapGet<V>(view: MapView<V>, key: string): V | undefined {
  // The newest view finds its value first; an older one walks back a few versions at most.
  let version = newest(view.store, key);
  while (version !== undefined && version.seq >= view.writes) version = version.previous;
  return version?.value;
}

/**
 * The view with `key` set to `value`; `view` itself still sees what it saw. A key written since
 * the last `mapFreeze` of the lineage is overwritten in place (no view that was handed out can
 * see that write), so a fold that sets one key several times keeps one version of it.
 */
export function mapSet<V>(view: MapView<V>, key: string, value: V): MapView<V> {
  const atTip = view.store.writes === view.writes;
  const store = atTip ? view.store : branch(view);
  const previous = newest(store, key);
  if (previous !== undefined && previous.seq >= store.frozen) {
    previous.value = value;
    return atTip ? view : { store, writes: store.writes };
  }
  const seq = store.writes;
  const version = { seq, value, previous };
  if (previous === undefined) {
    store.memoPosition = store.keys.length;
    store.index.add(key, store.keys.length);
    store.keys.push(key);
    store.firstWrites.push(seq);
    store.latest.push(version);
  } else {
    store.latest[store.memoPosition] = version;
  }
  store.memoKey = key;
  store.memoVersion = version;
  store.writes = seq + 1;
  return { store, writes: seq + 1 };
}

/**
 * Marks what `view` sees as handed out: later writes of its keys make new versions instead of
 * overwriting. O(1); what `publish` calls for every state it hands out.
 */
export function mapFreeze<V>(view: MapView<V>): void {
  if (view.writes > view.store.frozen) view.store.frozen = view.writes;
}

/** How many keys `view` sees. */
export function mapSize<V>(view: MapView<V>): number {
  const { firstWrites } = view.store;
  let size = firstWrites.length;
  while (size > 0 && (firstWrites[size - 1] as number) >= view.writes) size -= 1;
  return size;
}

/** Every key `view` sees with its value, in the order the keys were first written. */
export function mapEntries<V>(view: MapView<V>): [string, V][] {
  const { keys, firstWrites, latest } = view.store;
  const entries: [string, V][] = [];
  for (let index = 0; index < keys.length; index += 1) {
    if ((firstWrites[index] as number) >= view.writes) break;
    let version = latest[index];
    while (version !== undefined && version.seq >= view.writes) version = version.previous;
    entries.push([keys[index] as string, (version as Version<V>).value]);
  }
  return entries;
}

function newStore<V>(writes: number): MapStore<V> {
  const keys: string[] = [];
  return {
    keys,
    firstWrites: [],
    latest: [],
    index: new StringIndex(keys),
    writes,
    frozen: writes,
    memoKey: undefined,
    memoVersion: undefined,
    memoPosition: -1,
  };
}

/** The newest write of `key` in the store, through the one-entry memo. */
function newest<V>(store: MapStore<V>, key: string): Version<V> | undefined {
  if (key === store.memoKey) return store.memoVersion;
  const position = store.index.find(key);
  const version = position === -1 ? undefined : store.latest[position];
  store.memoKey = key;
  store.memoVersion = version;
  store.memoPosition = position;
  return version;
}

/**
 * A store of its own for an older view: the newest version each key had for it. The versions it
 * shares with the older store are frozen in it: either store may be read by views that see them.
 */
function branch<V>(view: MapView<V>): MapStore<V> {
  const copy = newStore<V>(view.writes);
  mapFreeze(view);
  const { keys, firstWrites, latest } = view.store;
  for (let index = 0; index < keys.length; index += 1) {
    if ((firstWrites[index] as number) >= view.writes) break;
    const key = keys[index] as string;
    let version = latest[index];
    while (version !== undefined && version.seq >= view.writes) version = version.previous;
    // Older versions stay reachable through `previous`: views older still may need them. A key
    // the view sees has a version it sees: its first write is below the view's `writes`.
    copy.index.add(key, copy.keys.length);
    copy.keys.push(key);
    copy.firstWrites.push(firstWrites[index] as number);
    copy.latest.push(version as Version<V>);
  }
  return copy;
}

/**
 * A view of an append-only sequence that a lineage of states shares: each view sees the first
 * `length` items of `items`. Appending to the newest view pushes in place (amortised O(1));
 * appending to an older view copies its prefix first, so no view ever sees its items change.
 */
export interface LogView<T> {
  readonly items: readonly T[];
  readonly length: number;
}

/** A view of an empty log. */
export function emptyLog<T>(): LogView<T> {
  return { items: [], length: 0 };
}

/** The view with `item` appended; `view` itself still sees what it saw. */
export function logPush<T>(view: LogView<T>, item: T): LogView<T> {
  // Only the newest view of a lineage may push in place; an older one branches off with a copy.
  const items = (
    view.items.length === view.length ? view.items : view.items.slice(0, view.length)
  ) as T[];
  items.push(item);
  return { items, length: view.length + 1 };
}

/** The item at `index` (negative counts from the end), or `undefined` outside the view. */
export function logAt<T>(view: LogView<T>, index: number): T | undefined {
  const at = index < 0 ? view.length + index : index;
  return at >= 0 && at < view.length ? view.items[at] : undefined;
}

/** A fresh array of the items from `start` to the end of the view. */
export function logSlice<T>(view: LogView<T>, start = 0): T[] {
  return view.items.slice(start, view.length);
}

/**
 * The view with one more item counted but not kept: what a checking fold keeps of a history
 * (its length). `logAt` reads nothing past the kept items; push nothing onto such a view.
 */
export function logCount<T>(view: LogView<T>): LogView<T> {
  return { items: view.items, length: view.length + 1 };
}

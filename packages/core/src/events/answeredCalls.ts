/** Where an answered call ended. */
export type AnsweredStatus = 'completed' | 'failed';

/** The storage of answered calls: each id with its answer's number, times two, plus one if failed. */
interface AnsweredStore {
  readonly codes: Map<string, number>;
  size: number;
}

/**
 * The answered tool calls of a checking fold (see `checkStream`), as bare id → status: no record,
 * no call, no output. Persistent, like the other growing parts of a state: a lineage of views
 * shares one store, a view sees the answers numbered below its `size`, and adding through an
 * older view copies what it sees first, so no view ever sees an answer appear.
 */
export interface AnsweredView {
  readonly store: AnsweredStore;
  readonly size: number;
}

/** A view of no answered call. */
export function noAnswers(): AnsweredView {
  return { store: { codes: new Map(), size: 0 }, size: 0 };
}

/** How the call `id` was answered, if `view` sees its answer. */
export function answeredStatus(view: AnsweredView, id: string): AnsweredStatus | undefined {
  const code = view.store.codes.get(id);
  if (code === undefined || Math.floor(code / 2) >= view.size) return undefined;
  return code % 2 === 1 ? 'failed' : 'completed';
}

/** The view with the call `id` answered as `status`; `view` itself still sees what it saw. */
export function withAnswer(view: AnsweredView, id: string, status: AnsweredStatus): AnsweredView {
  const store = view.store.size === view.size ? view.store : branch(view);
  store.codes.set(id, store.size * 2 + (status === 'failed' ? 1 : 0));
  store.size += 1;
  return { store, size: store.size };
}

function branch(view: AnsweredView): AnsweredStore {
  const codes = new Map<string, number>();
  for (const [id, code] of view.store.codes)
    if (Math.floor(code / 2) < view.size) codes.set(id, code);
  return { codes, size: view.size };
}

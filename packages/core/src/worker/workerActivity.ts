import type { WorkReason } from '../ports/workIndex.js';

/**
 * What a worker did, as it happens (SPEC WRK-2 … WRK-9): `Worker.activity$` emits one per fact.
 * `claimed`: it took a run; `waiting`: the run stopped for a person (expected, not a failure);
 * `finished`: the run ended otherwise; `released`: it gave the run back on shutdown; `lost`:
 * another process claimed the run, or its lease could not be renewed; `failed`: the run or its
 * start failed; `unserved`: a stream needs work under an agent name this worker does not have;
 * `storeFailed`: the worker could not reach the store (it backs off and tries again);
 * `capChanged`: its `caps` option replaced another cap the store held for an agent name (WRK-10).
 */
export type WorkerActivity =
  | {
      readonly kind: 'claimed';
      readonly streamId: string;
      readonly agent: string;
      readonly reason: WorkReason;
    }
  | { readonly kind: 'waiting'; readonly streamId: string }
  | { readonly kind: 'finished'; readonly streamId: string; readonly stop?: string }
  | { readonly kind: 'released'; readonly streamId: string; readonly reason: string }
  | { readonly kind: 'lost'; readonly streamId: string; readonly message: string }
  | { readonly kind: 'failed'; readonly streamId: string; readonly message: string }
  | { readonly kind: 'unserved'; readonly streamId: string; readonly agent?: string }
  | { readonly kind: 'storeFailed'; readonly message: string }
  | {
      readonly kind: 'capChanged';
      readonly agent: string;
      /** The cap it set; `null`: it removed the cap. */
      readonly cap: number | null;
      /** The cap the store held before. */
      readonly previous: number;
    };

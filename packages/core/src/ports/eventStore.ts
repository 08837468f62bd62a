import type { Observable } from 'rxjs';
import type { WorkEntry, WorkIndex } from './workIndex.js';

/**
 * The revision an append expects the stream to be at (KurrentDB vocabulary): the revision of its
 * last event, `'noStream'`, `'streamExists'` or `'any'`.
 */
export type ExpectedRevision = number | 'noStream' | 'streamExists' | 'any';

/** Metadata of an event before the store gives it a revision. */
export interface NewEventMetadata {
  readonly eventId: string;
  /** ISO-8601 time, from the injected clock. */
  readonly at: string;
  readonly schemaVersion: number;
}

/** Metadata of a stored event. Revisions count from 0 within a stream. */
export interface EventMetadata extends NewEventMetadata {
  readonly revision: number;
}

/** An event to append. */
export interface NewStreamEvent {
  readonly type: string;
  /** Plain JSON; stores refuse anything else. */
  readonly data: unknown;
  readonly metadata: NewEventMetadata;
}

/** An event as a store hands it back. */
export interface StreamEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/** Options of `readStream`. */
export interface ReadStreamOptions {
  readonly fromRevision?: number;
  readonly maxCount?: number;
  readonly direction?: 'forwards' | 'backwards';
}

/** Options of `appendToStream`. */
export interface AppendOptions {
  readonly expectedRevision: ExpectedRevision;
  /**
   * The append precedes a side effect (a tool that is not idempotent is about to run) or records
   * a person's decision: a store whose durability setting relaxes other appends must have this
   * one on stable storage, surviving a power loss, before it resolves. Stores that make every
   * append durable ignore it.
   */
  readonly durable?: boolean;
  /**
   * Where the stream stands for the workers after these events (SPEC WRK-6): a store with a work
   * index writes it in the same transaction as the events; others ignore it.
   */
  readonly work?: WorkEntry;
  /**
   * This append claims the stream's run (SPEC WRK-4, WRK-8): a store with a work index refuses it
   * with `RunOwnedError` while another owner holds a live lease by the store's clock, judged in
   * the same transaction as the append. On success the stream's fencing token becomes the revision
   * of the first event appended, and `owner` holds the lease. A claim whose `work` entry leaves the
   * stream `running` is refused with `AgentAtCapError` when the stream's agent name has a cap
   * (`WorkIndex.setCaps`) and that many other runs of it hold a live lease (SPEC WRK-10). Stores
   * without a work index ignore it.
   */
  readonly claim?: RunClaim;
  /**
   * The fencing token of the run this append belongs to (SPEC WRK-8): a store with a work index
   * refuses it with `LeaseLostError` when the stream's token is another (a later claim). Stores
   * without a work index ignore it.
   */
  readonly fence?: number;
}

/** A claim of a stream's run (SPEC WRK-4): who claims, and how long its lease lasts. */
export interface RunClaim {
  /** The claiming worker's id, or the owner id of an agent that runs in a process of its own. */
  readonly owner: string;
  /** The lease, counted by the store's clock from this append. */
  readonly leaseMs: number;
}

/** What an append returns: the revision to expect next time. */
export interface AppendResult {
  readonly nextExpectedRevision: number;
}

/**
 * The event store port. A conflict throws `ConcurrencyError` and stores nothing; an event whose
 * `eventId` is already stored in the stream is not stored twice.
 */
export interface EventStore {
  /** A short name of the store for messages, such as `SQLite .agentlog/agentlog.db`. */
  readonly label?: string;
  appendToStream(
    streamId: string,
    events: readonly NewStreamEvent[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  /** The events of a stream, `[]` for a stream that does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StreamEvent[]>;
  /** Catch-up, then live: every event from `fromRevision` on, as it is appended. */
  subscribeToStream(
    streamId: string,
    options?: { readonly fromRevision?: number },
  ): Observable<StreamEvent>;
  listStreams(): Promise<string[]>;
  /** The index of streams that need work (SPEC WRK-6), when the store keeps one (workers need it). */
  readonly work?: WorkIndex;
}

/**
 * Where a stream stands for the workers (SPEC WRK-2, WRK-6), as the process that appends computed
 * it from its fold: `requested` (a run was requested and not yet started), `ready` (stopped, and a
 * worker may continue it at once: every waiting call holds a decision, or a worker released it),
 * `running` (a run holds it; it needs work only once its lease lapsed), `waiting` (stopped for
 * feedback, and a waiting call holds no decision yet: it waits for a person, not for a worker, so
 * `findWork` never lists it; the reviewer's inbox reads these), `idle` (nothing to do).
 */
export type WorkStatus = 'requested' | 'ready' | 'running' | 'waiting' | 'idle';

/**
 * The work-index entry an append writes in the same transaction as its events (SPEC WRK-6). A
 * store without a work index ignores it.
 */
export interface WorkEntry {
  readonly status: WorkStatus;
  /** The registered agent name the stream runs under (`RunRequested.agent`), if it has one. */
  readonly agent?: string;
  /**
   * While `running`: who holds the run: the owner of its claim (a worker's id, or the owner id of
   * an agent that runs in a process of its own).
   */
  readonly owner?: string;
  /**
   * While `running`: how long the run is leased, counted by the store's clock from this append
   * (SPEC WRK-4). Every append of the run renews it.
   */
  readonly leaseMs?: number;
}

/** Why a stream needs work now (SPEC WRK-2). */
export type WorkReason = 'requested' | 'ready' | 'leaseLapsed';

/** A stream that needs work, as the index lists it. */
export interface WorkItem {
  readonly streamId: string;
  readonly reason: WorkReason;
  /** The registered agent name, when the stream has one. */
  readonly agent?: string;
  /** When the stream entered this status, by the store's clock (ISO time): first in, first out. */
  readonly since: string;
  /** For `leaseLapsed`: the worker whose lease lapsed, if a worker held it. */
  readonly owner?: string;
}

/** What a live worker says of itself (SPEC WRK-7, `agentlog workers`). */
export interface WorkerInfo {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** When it started, by the store's clock (ISO time). */
  readonly startedAt?: string;
  /** Its last heartbeat, by the store's clock (ISO time). */
  readonly heartbeatAt?: string;
  /** The streams whose runs it holds. */
  readonly runs: readonly string[];
  /** The registered agent names it runs (SPEC WRK-9), when it said them. */
  readonly agents?: readonly string[];
}

/** The index entry of one stream, as `agentlog list` shows it. */
export interface WorkState {
  readonly status: WorkStatus;
  readonly agent?: string;
  readonly owner?: string;
  /** While running: when its lease ends, by the store's clock (ISO time). */
  readonly leaseUntil?: string;
  /** The fencing token of the stream's last claim (SPEC WRK-8), once it was claimed. */
  readonly fence?: number;
}

/**
 * The index of streams that need work (SPEC WRK-6), kept by a store in the same transaction as the
 * events, so finding work costs what the work costs, not what the store holds. Leases are judged
 * on the store's clock, never a worker's (SPEC WRK-4). Who owns a run is decided by the append
 * that claims it (`AppendOptions.claim`), judged by the store against this index in the same
 * transaction (SPEC WRK-3, WRK-4, WRK-8), and so is its agent name's cap (SPEC WRK-10).
 */
export interface WorkIndex {
  /** The store's clock. */
  now(): Promise<Date>;
  /**
   * Streams that need work now, at most `limit`: requested runs first in, first out, runs whose
   * every waiting call holds a decision, and runs whose lease lapsed by the store's clock. Only
   * streams of the given agent names; an agent name with a cap (`setCaps`, SPEC WRK-10) gets at
   * most its cap minus its running streams with a live lease, so an agent at its cap gets none.
   */
  findWork(options: {
    readonly limit: number;
    readonly agents: readonly string[];
  }): Promise<WorkItem[]>;
  /**
   * Extends the lease `owner` holds on a running stream to `leaseMs` from the store's now (SPEC
   * WRK-4). False when the stream is not running under `owner` any more, or (given `fence`) when
   * another claim of the stream came since the one that made that token (SPEC WRK-8).
   */
  renewLease(streamId: string, owner: string, leaseMs: number, fence?: number): Promise<boolean>;
  /**
   * Streams that need work now (as `findWork` lists them) whose agent name is none of `agents`,
   * or that record no agent name at all (SPEC WRK-9): work no worker of these names can take.
   * At most `limit`, oldest first.
   */
  unservedWork(options: {
    readonly limit: number;
    readonly agents: readonly string[];
  }): Promise<WorkItem[]>;
  /**
   * The caps the store holds (SPEC WRK-10), by agent name: at most this many runs of the agent hold
   * a live lease at once, across all workers and processes. An agent name without one is not here.
   */
  caps(): Promise<Record<string, number>>;
  /**
   * Sets the cap of each agent name given (a whole number >= 0; 0 lets no new run of it start), or
   * removes it (`null`); the caps of other names stay. From its commit on, every claim of a run of
   * such an agent is judged against it (`AgentAtCapError`). A cap lowered below the runs live now
   * stops none of them. Resolves with the caps these names had before (a name without one is not
   * there). Refused with a `RangeError` naming the name, before anything is written, unless every
   * name is 1 to 128 letters, digits, `.`, `_`, `:` or `-` and every cap a whole number >= 0 or null.
   */
  setCaps(caps: Readonly<Record<string, number | null>>): Promise<Record<string, number>>;
  /** Records that a worker is alive, with the runs it holds (its heartbeat, by the store's clock). */
  heartbeat(worker: WorkerInfo): Promise<void>;
  /** Forgets a worker that stopped. */
  retire(workerId: string): Promise<void>;
  /** Workers whose last heartbeat is younger than `withinMs` by the store's clock. */
  listWorkers(options?: { readonly withinMs?: number }): Promise<WorkerInfo[]>;
  /**
   * The index entries of these streams (of every stream when omitted). The reviewer's inbox reads
   * them all and folds only the `waiting` streams (and those the index does not know).
   */
  workOf(streamIds?: readonly string[]): Promise<Map<string, WorkState>>;
  /**
   * Resolves when work may have appeared (PostgreSQL: a `NOTIFY` from an append that made a stream
   * need work), after `ms` at the latest, or at once when `signal` aborts.
   */
  waitForWork(ms: number, signal?: AbortSignal): Promise<void>;
}

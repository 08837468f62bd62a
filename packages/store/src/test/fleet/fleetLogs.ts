// The logs and the report of the fleet's chaos test: what the test and its worker processes log,
// and the figures the analyser (fleetAnalysis.ts) computes from them.
import type { StreamEvent } from '@agentlog/core';
import type { AppendEntry, EffectEntry, WorkerNote } from './fleetScenario.js';

/** The test SIGKILLed the worker `pid` of `slot` at `at`. */
export interface KillEntry {
  readonly slot: string;
  readonly pid: number;
  readonly at: number;
}

/** A worker process ended (killed or not) at `at`, as the test saw it. */
export interface ExitEntry {
  readonly slot: string;
  readonly pid: number;
  readonly at: number;
  /** The test killed it (SIGKILL of the chaos, or the end of the test). */
  readonly expected: boolean;
  readonly how: string;
}

/** The test stopped the worker `pid` with SIGSTOP while it charged `streamId`, and continued it. */
export interface PauseEntry {
  readonly slot: string;
  readonly pid: number;
  readonly streamId: string;
  readonly stoppedAt: number;
  readonly continuedAt?: number;
}

/** Nobody could write to the store from `downAt` to `upAt` (the server's restart, a held lock). */
export interface OutageEntry {
  readonly downAt: number;
  readonly upAt?: number;
  /** Why: the server restarted, or a stopped worker held the write lock. */
  readonly cause?: string;
}

/** Everything the analyser reads. */
export interface FleetLogs {
  readonly leaseMs: number;
  /** Each requested stream's events, or why it could not be read. */
  readonly streams: ReadonlyMap<string, readonly StreamEvent[] | { readonly readError: string }>;
  readonly appends: readonly AppendEntry[];
  readonly effects: readonly EffectEntry[];
  readonly notes: readonly WorkerNote[];
  readonly kills: readonly KillEntry[];
  readonly exits: readonly ExitEntry[];
  readonly pauses: readonly PauseEntry[];
  readonly outages: readonly OutageEntry[];
}

/** Why a takeover did not take a live run: what had happened to its owner by then. */
export type TakeoverExcuse =
  'ownerKilled' | 'ownerExited' | 'ownerPaused' | 'ownerGaveUp' | 'storeDown';

/** A RunStarted by another worker than the previous one, while the previous run had not ended. */
export interface Takeover {
  readonly streamId: string;
  readonly revision: number;
  readonly from: { readonly pid: number; readonly id?: string };
  readonly to: { readonly pid: number; readonly id?: string };
  /** When the taker called the append of its RunStarted (or a lower bound). */
  readonly at: number;
  /** Why its owner was not live then; none: it took a live owner's run. */
  readonly excuse?: TakeoverExcuse;
}

/** The figures of one run of the fleet. */
export interface FleetFigures {
  readonly runs: number;
  /** Streams whose last event is the run's own end (`AgentStopped` noNewMessages). */
  readonly finished: number;
  readonly kills: number;
  readonly takeovers: number;
  /** Takeovers of an owner that was alive, not stopped, had not given the run up, and could reach the store. */
  readonly liveTakeovers: number;
  /** Events the paused worker appended to a stream after another worker had claimed its run. */
  readonly pausedAppendsAfterClaim: number;
  /** Events any worker appended to a stream after another worker had claimed its run. */
  readonly staleAppends: number;
  /** Calls the loop re-asked a person about after a crash (FeedbackRequested ambiguous). */
  readonly ambiguousAsks: number;
  /**
   * Charges beyond one per stream that TOOL-7 does not allow (see `toolReruns`): above all a charge
   * by a worker after another worker had claimed its run.
   */
  readonly doubleEffects: number;
  /**
   * Second charges TOOL-7 allows: the earlier charger held the run when it charged and never
   * recorded the outcome (it was killed, stopped, or could not reach the store), the loop re-asked,
   * a person approved again, the later charger held the run too, and the earlier charger's run was
   * not taken from it while it lived (a takeover of a live owner is what keeps it from recording).
   */
  readonly toolReruns: number;
  /** Finished streams whose charge left no effect line. */
  readonly missingCharges: number;
  /** Events an append returned as stored that the stream does not hold (at that revision). */
  readonly lostEvents: number;
  /** Streams that could not be read or folded. */
  readonly unfoldable: number;
  /** Stored events no append log names (an append whose answer a crash or an outage cut off). */
  readonly unattributed: number;
}

/** The figures and the details behind each failure. */
export interface FleetReport {
  readonly figures: FleetFigures;
  readonly takeovers: readonly Takeover[];
  readonly excuses: Readonly<Record<TakeoverExcuse, number>>;
  readonly details: {
    readonly unfinished: readonly string[];
    readonly liveTakeovers: readonly string[];
    readonly pausedAppends: readonly string[];
    readonly staleAppends: readonly string[];
    readonly doubleEffects: readonly string[];
    readonly missingCharges: readonly string[];
    readonly lostEvents: readonly string[];
    readonly unfoldable: readonly string[];
  };
}

// The person of the fleet's chaos test: polls the calls that wait for a decision and approves
// every one, an ambiguous call re-asked after a crash too (TOOL-7: a non-idempotent tool whose
// start has no outcome asks a person again; the reviewer says yes and counts it).
import { pendingDecisions, recordDecision, ToolFeedback, type EventStore } from '@agentlog/core';
import { reviewerName } from './fleetScenario.js';

/** What the reviewer did. */
export interface ReviewerCounts {
  /** Decisions recorded. */
  readonly approvals: number;
  /** Of those, on calls the loop re-asked after a crash (`ambiguous`). */
  readonly ambiguousApprovals: number;
  /** Decisions the store refused (the call was decided or answered meanwhile) or could not take. */
  readonly refused: number;
  /** Polls that failed (the store could not be reached: the PostgreSQL restart). */
  readonly failedPolls: number;
}

/** Approves every waiting call of `store` every `pollMs` until `stop()`. */
export class Reviewer {
  #approvals = 0;
  #ambiguous = 0;
  #refused = 0;
  #failedPolls = 0;
  #stopped = false;
  readonly #loop: Promise<void>;

  constructor(
    readonly store: EventStore,
    readonly pollMs = 250,
  ) {
    this.#loop = this.#run();
  }

  get counts(): ReviewerCounts {
    return {
      approvals: this.#approvals,
      ambiguousApprovals: this.#ambiguous,
      refused: this.#refused,
      failedPolls: this.#failedPolls,
    };
  }

  async stop(): Promise<ReviewerCounts> {
    this.#stopped = true;
    await this.#loop;
    return this.counts;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      await this.review();
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /** One poll: approves each waiting call once. */
  async review(): Promise<void> {
    let waiting;
    try {
      waiting = await pendingDecisions(this.store);
    } catch {
      this.#failedPolls += 1;
      return;
    }
    for (const call of waiting) {
      if (this.#stopped) return;
      const ambiguous = call.ambiguous === true;
      try {
        await recordDecision(this.store, call.streamId, call.toolCall.id, ToolFeedback.approved(), {
          by: reviewerName,
          ...(ambiguous ? { note: 'ambiguous after a crash: charge it again' } : {}),
        });
        this.#approvals += 1;
        if (ambiguous) this.#ambiguous += 1;
      } catch {
        this.#refused += 1;
      }
    }
  }
}

import { Subject } from 'rxjs';
import { AgentError } from '../errors/agentError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import { isLeaseLost } from '../errors/fenceErrors.js';
import type { AgentEvent, PendingEvent } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { foldStream } from '../events/foldEvents.js';
import { mayRebase } from '../decider/mayRebase.js';
import type { EventStore, RunClaim } from '../ports/eventStore.js';
import type { WorkEntry } from '../ports/workIndex.js';
import { foldRead, rememberFold } from './foldCache.js';
import { foldDrafts, stampEvent, type Draft } from './stampEvents.js';
import { storeFault } from './storeFault.js';
import { markCheckedBatch } from '../store/checkedBatch.js';

/**
 * The only way state changes: stamps events with metadata, checks them against the state
 * (SPEC EVT-4), appends them with the expected revision (SPEC RES-3), then folds them.
 * Appends are serialised, so the stream order is the order of the calls.
 */
export class StreamWriter {
  readonly events$ = new Subject<AgentEvent>();
  /** What the store holds, as far as this writer knows. */
  #committed: AgentState;
  /** `#committed` plus the deferred events, folded as they were deferred. */
  #state: AgentState;
  #queue: Promise<unknown> = Promise.resolve();
  #deferred: Draft[] = [];
  /** The deferred drafts as folded into `#state`, with their revisions. */
  #deferredEvents: AgentEvent[] = [];
  #inFlight = 0;
  /** The run count right after this writer stored a `RunStarted`: the run that is its own. */
  #ownRun: number | undefined;
  /** The claim the next append makes of the stream's run (SPEC WRK-4), with who to tell. */
  #claim: { readonly claim: RunClaim; readonly claimed: (fence: number) => void } | undefined;
  /** While this writer's run holds the stream: its claim's owner and fencing token (SPEC WRK-8). */
  #held: { readonly owner: string; readonly fence: number } | undefined;
  /** The fencing token of this writer's last claim, kept after its run ended (for a release). */
  #lastFence: number | undefined;
  /** Why this writer's run lost the stream: from then on the run appends nothing (SPEC WRK-4). */
  #lost: Error | undefined;

  constructor(
    private readonly store: EventStore,
    readonly streamId: string,
    private readonly clock: () => Date,
    private readonly ids: () => string,
    state: AgentState,
    /** Values never to be stored, such as the model's API key (SPEC RPL-3). */
    private readonly secrets: () => readonly string[] = () => [],
    /**
     * Where the stream stands for the workers after an append (SPEC WRK-6), written with it;
     * `undefined` leaves the stream's index entry as it is.
     */
    private readonly work?: (state: AgentState, owner?: string) => WorkEntry | undefined,
  ) {
    this.#committed = state;
    this.#state = state;
  }

  /** The fold of every event appended or read so far, and of the events held back to go with the next append. */
  get state(): AgentState {
    return this.#state;
  }

  /**
   * Whether the run the stream shows in progress is one this writer started (SPEC RES-4): after
   * a store outage left it unfinished, its own agent may resume it at once, while any other
   * agent respects its lease.
   */
  ownsCurrentRun(): boolean {
    return this.#ownRun === this.#committed.runs && this.#committed.status === 'running';
  }

  /** The fold of the events stored so far. */
  get committed(): AgentState {
    return this.#committed;
  }

  /**
   * The next append claims the stream's run for `claim.owner` (SPEC WRK-4): the store refuses it
   * with `RunOwnedError` while another owner's lease is live. Once it is stored, `claimed` hears
   * the fencing token, and every append of the run states it (SPEC WRK-8) until `endRun()`.
   */
  claimNext(claim: RunClaim, claimed: (fence: number) => void = () => undefined): void {
    this.#claim = { claim, claimed };
    this.#lost = undefined;
  }

  /** The run ended: later appends (decisions, summaries) state no token. */
  endRun(): void {
    this.#claim = undefined;
    this.#held = undefined;
  }

  /** The fencing token of this writer's last claim, if it made one (SPEC WRK-8). */
  get lastFence(): number | undefined {
    return this.#lastFence;
  }

  /**
   * The run lost the stream (its lease could not be renewed, or another process claimed it): it
   * appends nothing more, not even its stop (SPEC WRK-4). What it held back is dropped.
   */
  loseRun(error: Error): void {
    this.#lost ??= error;
  }

  /** Why the run lost the stream, if it did. */
  get lost(): Error | undefined {
    return this.#lost;
  }

  /**
   * Appends the events, after the deferred ones, as one atomic write, and resolves with them as
   * stored.
   */
  append(
    pending: readonly PendingEvent[],
    options: { readonly durable?: boolean; readonly fence?: number } = {},
  ): Promise<AgentEvent[]> {
    this.defer(pending);
    return this.#serialised(() => this.#append(options.durable === true, options.fence));
  }

  /**
   * Holds events back so that the next `append` writes them with its own, in one commit: how a
   * step's events go in as few appends as the rules allow. They are stamped, checked against the
   * state and folded now (SPEC EVT-4), so `state` shows them at once; an invalid one throws here
   * and nothing of it is kept.
   */
  defer(pending: readonly PendingEvent[]): void {
    if (pending.length === 0) return;
    const drafts = pending.map((event) => this.#draft(event));
    const { state, events } = foldDrafts(this.#state, drafts);
    this.#state = state;
    this.#deferred.push(...drafts);
    this.#deferredEvents.push(...events);
  }

  /** Appends the deferred events, if any, on their own. */
  flush(options: { readonly durable?: boolean } = {}): Promise<AgentEvent[]> {
    // Nothing held back and nothing in flight: no write, and no trip through the queue.
    if (this.#deferred.length === 0 && this.#inFlight === 0) return Promise.resolve([]);
    return this.append([], options);
  }

  /** Drops the deferred events: the run that deferred them failed before it could write them. */
  discardDeferred(): void {
    this.#deferred = [];
    this.#deferredEvents = [];
    this.#state = this.#committed;
  }

  /** After `#committed` moved under the deferred events: fold them again on top of it. */
  #refoldDeferred(): void {
    const { state, events } = foldDrafts(this.#committed, this.#deferred);
    this.#state = state;
    this.#deferredEvents = events;
  }

  /** Folds whatever other writers appended since this writer's last revision. */
  catchUp(): Promise<void> {
    return this.#serialised(async () => {
      const stored = await this.store
        .readStream(this.streamId, { fromRevision: this.#committed.revision + 1 })
        .catch((error: unknown) => {
          throw storeFault(error, this.streamId, 'read');
        });
      if (stored.length === 0) return;
      this.#committed = foldRead(this.store, this.streamId, stored, this.#committed).state;
      this.#refoldDeferred();
      const last = stored.at(-1);
      if (last !== undefined)
        rememberFold(this.store, this.streamId, this.#committed, last.metadata.eventId);
    });
  }

  #serialised<T>(work: () => Promise<T>): Promise<T> {
    // With nothing in flight, every earlier write has finished: this one starts at once.
    const idle = this.#inFlight === 0;
    this.#inFlight += 1;
    const started = idle ? work() : this.#queue.then(work);
    const result = started.finally(() => {
      this.#inFlight -= 1;
    });
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #draft(event: PendingEvent): Draft {
    return stampEvent(event, { clock: this.clock, ids: this.ids, secrets: this.secrets() });
  }

  async #append(durable: boolean, fence = this.#held?.fence): Promise<AgentEvent[]> {
    // Ids and times were drawn once, so a retried append stores the very same events.
    if (this.#deferred.length === 0) return [];
    const refused = this.#lost;
    if (refused !== undefined) {
      this.discardDeferred();
      throw refused;
    }
    const claiming = this.#claim;
    // Checked and frozen as they were stamped: a store neither walks nor copies them again.
    const drafts = markCheckedBatch(this.#deferred.splice(0));
    // Folded when they were deferred, on top of what is stored: no second fold unless rebased.
    let folded = { state: this.#state, events: this.#deferredEvents.splice(0) };
    let base = this.#committed;
    for (let attempt = 0; ; attempt += 1) {
      const { state, events } = folded;
      try {
        const { nextExpectedRevision } = await this.store.appendToStream(this.streamId, drafts, {
          expectedRevision: base.revision === -1 ? 'noStream' : base.revision,
          ...(durable ? { durable } : {}),
          ...this.#workOf(state, claiming?.claim.owner),
          ...(claiming === undefined
            ? fence === undefined
              ? {}
              : { fence }
            : { claim: claiming.claim }),
        });
        if (nextExpectedRevision !== state.revision) {
          // The store skipped events whose ids it already holds: the ids generator repeats itself.
          throw new AgentError(
            'storeFailed',
            `stream ${this.streamId}: the store kept revision ${nextExpectedRevision}, not ${state.revision}; ` +
              'an event id was already stored, so the ids generator must give unique ids',
          );
        }
        this.#committed = state;
        if (events.some((event) => event.type === 'RunStarted')) this.#ownRun = state.runs;
        if (claiming !== undefined && this.#claim === claiming) {
          // The token is the revision of the claim's first event (SPEC WRK-8).
          const token = base.revision + 1;
          this.#claim = undefined;
          this.#held = { owner: claiming.claim.owner, fence: token };
          this.#lastFence = token;
          claiming.claimed(token);
        }
        // Events deferred while this append was in flight were folded on top of it already,
        // unless a rebase moved what they sit on.
        if (this.#deferred.length === 0) this.#state = state;
        else if (attempt > 0) this.#refoldDeferred();
        const last = events.at(-1);
        if (last !== undefined)
          rememberFold(this.store, this.streamId, state, last.metadata.eventId);
        if (this.events$.observed) for (const event of events) this.events$.next(event);
        return events;
      } catch (error) {
        const rebased =
          error instanceof ConcurrencyError && attempt === 0 ? await this.#rebase(base) : undefined;
        // Another process claimed the run, or holds a live one: this run appends nothing more.
        if (isLeaseLost(error) && claiming === undefined) this.loseRun(error);
        if (rebased === undefined) {
          // Nothing of it was stored: what was held back with it is dropped too.
          if (attempt > 0) this.#committed = base;
          this.discardDeferred();
          throw storeFault(error, this.streamId, 'append');
        }
        base = rebased;
        try {
          folded = foldDrafts(base, drafts);
        } catch (invalid) {
          this.#committed = rebased;
          this.discardDeferred();
          throw invalid;
        }
      }
    }
  }

  /**
   * The `work` option of an append that leaves `state`, if this writer writes one: a running
   * stream is owned by the claim's owner (a worker, or this agent's process).
   */
  #workOf(state: AgentState, claimer?: string): { readonly work?: WorkEntry } {
    const work = this.work?.(state, claimer ?? this.#held?.owner);
    return work === undefined ? {} : { work };
  }

  /**
   * After a conflict: when the other writer only recorded decisions (a person approving from
   * another process while this one runs), fold them and let the append retry on top of them.
   */
  async #rebase(base: AgentState): Promise<AgentState | undefined> {
    const foreign = await this.store
      .readStream(this.streamId, { fromRevision: base.revision + 1 })
      .catch((error: unknown) => {
        throw storeFault(error, this.streamId, 'read');
      });
    if (!mayRebase(foreign)) return undefined;
    return foldStream(foreign, base).state;
  }
}

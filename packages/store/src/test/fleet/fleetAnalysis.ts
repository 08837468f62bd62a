// The analyser of the fleet's chaos test: from the streams the store holds, the logs the worker
// processes wrote (appends, effects, notes) and the test's own logs (kills, exits, pauses, store
// outages) it computes the figures of the run and names every failure. Pure: it reads nothing.
//
// Times are CLOCK_MONOTONIC milliseconds (fleetScenario.ts `monotonicMs`), one clock for every
// process; the events' own `at` is never used, since the skewed workers write theirs 10 minutes off.
import { foldStream, type StreamEvent } from '@agentlog/core';
import type { FleetLogs, FleetReport, Takeover, TakeoverExcuse } from './fleetLogs.js';
import { chargeCallId, type AppendEntry, type EffectEntry } from './fleetScenario.js';

interface Stored {
  readonly event: StreamEvent;
  readonly append?: AppendEntry;
}

/** Computes the figures of a run of the fleet (see the file's comment). */
export function analyseFleet(logs: FleetLogs): FleetReport {
  const margin = logs.leaseMs;
  const appendsById = new Map<string, AppendEntry>();
  for (const entry of logs.appends) appendsById.set(entry.eventId, entry);
  const killedAt = firstTimes(logs.kills);
  const exitedAt = firstTimes(logs.exits);
  const pausedPids = new Set(logs.pauses.map((pause) => pause.pid));

  const unfinished: string[] = [];
  const unfoldable: string[] = [];
  const lostEvents: string[] = [];
  const liveTakeovers: string[] = [];
  const pausedAppends: string[] = [];
  const staleAppends: string[] = [];
  const doubleEffects: string[] = [];
  const missingCharges: string[] = [];
  const takeovers: Takeover[] = [];
  let finished = 0;
  let ambiguousAsks = 0;
  let toolReruns = 0;
  let unattributed = 0;

  /** Why the owner `pid` of a run on `streamId`, claimed at `claimedAt`, was not live at `at`. */
  const excuseOf = (
    pid: number,
    streamId: string,
    claimedAt: number,
    at: number,
  ): TakeoverExcuse | undefined => {
    const killed = killedAt.get(pid);
    if (killed !== undefined && killed <= at) return 'ownerKilled';
    const exited = exitedAt.get(pid);
    if (exited !== undefined && exited <= at) return 'ownerExited';
    // A pause or an outage excuses a takeover within a lease of its end, of a run its owner held
    // before that end (a run claimed afterwards has a lease of its own).
    const covers = (from: number, to: number | undefined): boolean =>
      from <= at && at <= (to ?? Infinity) + margin && claimedAt <= (to ?? Infinity);
    for (const pause of logs.pauses) {
      if (pause.pid === pid && covers(pause.stoppedAt, pause.continuedAt)) return 'ownerPaused';
    }
    const gaveUp = logs.notes.some(
      (note) =>
        note.kind === 'warn' &&
        note.pid === pid &&
        note.streamId === streamId &&
        note.at >= claimedAt &&
        note.at <= at,
    );
    if (gaveUp) return 'ownerGaveUp';
    for (const outage of logs.outages) {
      if (covers(outage.downAt, outage.upAt)) return 'storeDown';
    }
    return undefined;
  };

  for (const [streamId, read] of logs.streams) {
    if (!Array.isArray(read)) {
      unfoldable.push(`${streamId}: ${(read as { readError: string }).readError}`);
      unfinished.push(`${streamId}: could not be read`);
      continue;
    }
    const events = read as readonly StreamEvent[];
    // Every stream folds, its revisions contiguous.
    const gap = events.findIndex((event, index) => event.metadata.revision !== index);
    if (gap !== -1) unfoldable.push(`${streamId}: revision gap at position ${gap}`);
    try {
      foldStream([...events]);
    } catch (error) {
      unfoldable.push(`${streamId}: ${error instanceof Error ? error.message : String(error)}`);
    }

    // The run finished: its last event is the run's own end.
    const last = events.at(-1);
    const reason = (last?.data as { reason?: { kind?: string } } | undefined)?.reason?.kind;
    if (last?.type === 'AgentStopped' && reason === 'noNewMessages') finished += 1;
    else
      unfinished.push(
        `${streamId}: ends with ${events
          .slice(-3)
          .map(
            (event) => `${event.type}${event.type === 'AgentStopped' ? `(${String(reason)})` : ''}`,
          )
          .join(', ')}`,
      );

    const stored: Stored[] = events.map((event) => {
      const append = appendsById.get(event.metadata.eventId);
      return append === undefined ? { event } : { event, append };
    });
    unattributed += stored.filter((entry) => entry.append === undefined).length;

    // Takeovers and stale appends.
    let owner: { pid: number; id?: string; claimedAt: number } | undefined;
    /** Each claim of the run (RunStarted): its worker, and when its append returned. */
    const claims: { pid: number; at: number }[] = [];
    let running = false;
    const superseded = new Set<number>();
    let lowerBound = -Infinity;
    for (const { event, append } of stored) {
      const at = append?.calledAt ?? lowerBound;
      if (event.type === 'RunStarted') {
        const worker = (event.data as { worker?: { id?: string; pid?: number } }).worker;
        const pid = worker?.pid ?? -1;
        if (running && owner !== undefined && pid !== owner.pid) {
          const excuse = excuseOf(owner.pid, streamId, owner.claimedAt, at);
          const takeover: Takeover = {
            streamId,
            revision: event.metadata.revision,
            from: { pid: owner.pid, ...(owner.id === undefined ? {} : { id: owner.id }) },
            to: { pid, ...(worker?.id === undefined ? {} : { id: worker.id }) },
            at,
            ...(excuse === undefined ? {} : { excuse }),
          };
          takeovers.push(takeover);
          if (excuse === undefined)
            liveTakeovers.push(
              `${streamId} r${event.metadata.revision}: ${worker?.id ?? pid} took the run of live ${owner.id ?? owner.pid}`,
            );
        }
        if (owner !== undefined && owner.pid !== pid) superseded.add(owner.pid);
        superseded.delete(pid);
        owner = { pid, ...(worker?.id === undefined ? {} : { id: worker.id }), claimedAt: at };
        claims.push({ pid, at: append?.at ?? lowerBound });
        running = true;
      } else if (append !== undefined && append.slot !== 'test' && superseded.has(append.pid)) {
        const line = `${streamId} r${event.metadata.revision} ${event.type} by ${append.slot}-${append.pid} after ${owner?.id ?? '?'} claimed the run`;
        staleAppends.push(line);
        if (pausedPids.has(append.pid)) pausedAppends.push(line);
      }
      if (event.type === 'AgentStopped' || event.type === 'RunReleased') running = false;
      if (event.type === 'FeedbackRequested') {
        if ((event.data as { ambiguous?: boolean }).ambiguous === true) ambiguousAsks += 1;
      }
      if (append !== undefined) lowerBound = Math.max(lowerBound, append.at);
    }

    // Exactly one charge per stream; a second one only as TOOL-7 allows it.
    const approvals = events.filter((event) => {
      const data = event.data as { toolCallId?: string; feedback?: { kind?: string } };
      return (
        event.type === 'FeedbackReceived' &&
        data.toolCallId === chargeCallId &&
        data.feedback?.kind === 'approved'
      );
    }).length;
    const charges = logs.effects
      .filter((effect) => effect.streamId === streamId)
      .sort((a, b) => a.at - b.at);
    if (charges.length === 0 && last?.type === 'AgentStopped' && reason === 'noNewMessages')
      missingCharges.push(`${streamId}: finished, but its charge wrote no effect`);
    // A charge is stale when another worker had claimed the run since its charger's claim.
    const holderAt = (at: number): number | undefined =>
      claims.filter((claim) => claim.at <= at).at(-1)?.pid;
    const stale = (charge: EffectEntry): boolean => holderAt(charge.at) !== charge.pid;
    /** A live owner's run was taken from `pid` between `from` and `to`: it could record nothing. */
    const takenFromLive = (pid: number, from: number, to: number): boolean =>
      takeovers.some(
        (takeover) =>
          takeover.streamId === streamId &&
          takeover.excuse === undefined &&
          takeover.from.pid === pid &&
          takeover.at >= from &&
          takeover.at <= to,
      );
    for (const [index, charge] of charges.entries()) {
      if (index === 0) continue;
      const earlier = charges[index - 1] as EffectEntry;
      // The earlier charger never recorded the charge's outcome (it was killed, stopped, or the
      // store could not be reached): the loop re-asked, as TOOL-7 says, and a person approved.
      const recorded = stored.some(
        ({ event, append }) =>
          append?.pid === earlier.pid &&
          append.calledAt >= earlier.at &&
          append.calledAt <= charge.at &&
          (event.type === 'ToolCallCompleted' || event.type === 'ToolCallFailed') &&
          (event.data as { toolCallId?: string }).toolCallId === charge.toolCallId,
      );
      const why = [
        ...(stale(charge)
          ? [`charge ${index + 1} (by ${charge.pid}) came after another worker had claimed the run`]
          : []),
        ...(stale(earlier)
          ? [`charge ${index} (by ${earlier.pid}) came after another worker had claimed the run`]
          : []),
        ...(recorded ? [`${earlier.pid} had recorded the outcome of charge ${index}`] : []),
        ...(approvals < index + 1
          ? [`only ${approvals} approval(s) for ${index + 1} charges`]
          : []),
        ...(takenFromLive(earlier.pid, earlier.at, charge.at)
          ? [`its run was taken from ${earlier.pid}, live, after charge ${index}`]
          : []),
      ];
      if (why.length === 0) toolReruns += 1;
      else
        doubleEffects.push(
          `${streamId}: charged by ${charges.map((entry) => entry.pid).join(', ')}; ${why.join(', ')}`,
        );
    }
  }

  // Nothing an append returned as stored is missing.
  for (const entry of logs.appends) {
    const read = logs.streams.get(entry.streamId);
    if (!Array.isArray(read)) continue;
    const held = (read as readonly StreamEvent[])[entry.revision];
    if (held?.metadata.eventId !== entry.eventId)
      lostEvents.push(
        `${entry.streamId} r${entry.revision} ${entry.type} (${entry.eventId}) of ${entry.slot}-${entry.pid}: the stream holds ${held === undefined ? 'nothing' : `${held.type} (${held.metadata.eventId})`} there`,
      );
  }

  const excuses: Record<TakeoverExcuse, number> = {
    ownerKilled: 0,
    ownerExited: 0,
    ownerPaused: 0,
    ownerGaveUp: 0,
    storeDown: 0,
  };
  for (const takeover of takeovers) {
    if (takeover.excuse !== undefined) excuses[takeover.excuse] += 1;
  }

  return {
    figures: {
      runs: logs.streams.size,
      finished,
      kills: logs.kills.length,
      takeovers: takeovers.length,
      liveTakeovers: liveTakeovers.length,
      pausedAppendsAfterClaim: pausedAppends.length,
      staleAppends: staleAppends.length,
      ambiguousAsks,
      doubleEffects: doubleEffects.length,
      toolReruns,
      missingCharges: missingCharges.length,
      lostEvents: lostEvents.length,
      unfoldable: unfoldable.length,
      unattributed,
    },
    takeovers,
    excuses,
    details: {
      unfinished,
      liveTakeovers,
      pausedAppends,
      staleAppends,
      doubleEffects,
      missingCharges,
      lostEvents,
      unfoldable,
    },
  };
}

/** The first time each pid appears in `entries`. */
function firstTimes(
  entries: readonly { readonly pid: number; readonly at: number }[],
): Map<number, number> {
  const times = new Map<number, number>();
  for (const { pid, at } of entries) {
    const seen = times.get(pid);
    if (seen === undefined || at < seen) times.set(pid, at);
  }
  return times;
}

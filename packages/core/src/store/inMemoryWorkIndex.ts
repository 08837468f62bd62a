import type { AppendOptions } from '../ports/eventStore.js';
import type { WorkEntry, WorkIndex, WorkItem, WorkState, WorkerInfo } from '../ports/workIndex.js';
import { cappedAgentOf, judgeCap } from './judgeCap.js';
import type { FencedEntry } from './judgeFence.js';
import { assertAgentCaps, assertFindWorkOptions, assertLeaseMs } from './workIndexChecks.js';

/** What the in-memory index keeps of one stream. */
interface IndexedStream {
  readonly status: WorkEntry['status'];
  readonly agent?: string;
  readonly owner?: string;
  /** Store time (ms) the stream entered its status. */
  readonly since: number;
  /** While running: store time (ms) its lease ends. */
  readonly leaseUntil?: number;
  /** The fencing token of the stream's last claim (SPEC WRK-8). */
  readonly fence?: number;
}

/** What the in-memory index keeps of one worker. */
interface IndexedWorker {
  readonly info: WorkerInfo;
  readonly startedAt: number;
  readonly heartbeatAt: number;
}

/** The lease of a running entry that names none: the decider's default run lease. */
const DEFAULT_LEASE_MS = 5 * 60_000;

/**
 * The in-memory store's work index (SPEC WRK-6): `record` is called by the store's append, in the
 * same synchronous step that stores the events, so the index never disagrees with the streams.
 * Leases are judged on the store's clock (SPEC WRK-4).
 */
export interface InMemoryWorkIndex {
  /** The port the store hands out as `store.work`. */
  readonly index: WorkIndex;
  /**
   * Writes a stream's entry; called by the append that stored its events. `fence` is the new
   * fencing token when the append claimed the run (SPEC WRK-8); otherwise the token stays.
   */
  readonly record: (streamId: string, entry: WorkEntry, fence?: number) => void;
  /** The stream's run as the fence is judged on it (`judgeFence`). */
  readonly fenced: (streamId: string) => FencedEntry | undefined;
  /**
   * Judges an append's claim against its agent name's cap (`judgeCap`, SPEC WRK-10): throws
   * `AgentAtCapError` when the agent's other runs with a live lease reached it.
   */
  readonly judgeCap: (streamId: string, options: Pick<AppendOptions, 'claim' | 'work'>) => void;
  /** The store's clock, in ms. */
  readonly now: () => number;
}

/** Creates the work index of an in-memory store, judging time by `clock` (the store's clock). */
export function createInMemoryWorkIndex(clock: () => Date): InMemoryWorkIndex {
  const streams = new Map<string, IndexedStream>();
  const workers = new Map<string, IndexedWorker>();
  /** The caps by agent name (SPEC WRK-10). */
  const caps = new Map<string, number>();
  /** The running streams of each agent name, so a claim counts them, not every stream. */
  const runningOf = new Map<string, Set<string>>();
  const waiters = new Set<() => void>();
  const now = (): number => clock().getTime();
  const iso = (ms: number): string => new Date(ms).toISOString();

  const reasonOf = (entry: IndexedStream, at: number): WorkItem['reason'] | undefined => {
    switch (entry.status) {
      case 'requested':
        return 'requested';
      case 'ready':
        return 'ready';
      case 'running':
        return entry.leaseUntil !== undefined && entry.leaseUntil <= at ? 'leaseLapsed' : undefined;
      case 'waiting':
      case 'idle':
        return undefined;
    }
  };

  const record = (streamId: string, entry: WorkEntry, fence?: number): void => {
    const at = now();
    const before = streams.get(streamId);
    const token = fence ?? before?.fence;
    const same = before?.status === entry.status;
    const agent = entry.agent ?? before?.agent;
    if (before?.status === 'running' && before.agent !== undefined) {
      runningOf.get(before.agent)?.delete(streamId);
    }
    if (entry.status === 'running' && agent !== undefined) {
      const running = runningOf.get(agent) ?? new Set<string>();
      runningOf.set(agent, running.add(streamId));
    }
    streams.set(streamId, {
      status: entry.status,
      // An entry that leaves the agent out keeps the one the stream has.
      ...(agent === undefined ? {} : { agent }),
      ...(entry.owner === undefined ? {} : { owner: entry.owner }),
      since: same && before !== undefined ? before.since : at,
      ...(entry.status === 'running'
        ? { leaseUntil: at + (entry.leaseMs ?? DEFAULT_LEASE_MS) }
        : {}),
      ...(token === undefined ? {} : { fence: token }),
    });
    if (entry.status === 'requested' || entry.status === 'ready') {
      for (const wake of [...waiters]) wake();
    }
  };
  const index: WorkIndex = {
    now: () => Promise.resolve(clock()),
    findWork(options) {
      // A refusal is a rejection, as from a store that talks to a server.
      try {
        assertFindWorkOptions(options);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const { limit, agents } = options;
      const at = now();
      const running = new Map<string, number>();
      const candidates: (WorkItem & { readonly sinceMs: number })[] = [];
      for (const [streamId, entry] of streams) {
        if (entry.agent === undefined || !agents.includes(entry.agent)) continue;
        const reason = reasonOf(entry, at);
        if (entry.status === 'running' && reason === undefined) {
          running.set(entry.agent, (running.get(entry.agent) ?? 0) + 1);
        }
        if (reason === undefined) continue;
        const sinceMs = reason === 'leaseLapsed' ? (entry.leaseUntil ?? entry.since) : entry.since;
        candidates.push({
          streamId,
          reason,
          agent: entry.agent,
          since: iso(sinceMs),
          sinceMs,
          ...(reason === 'leaseLapsed' && entry.owner !== undefined ? { owner: entry.owner } : {}),
        });
      }
      candidates.sort((a, b) => a.sinceMs - b.sinceMs);
      const found: WorkItem[] = [];
      for (const { sinceMs: _since, ...item } of candidates) {
        if (found.length >= limit) break;
        const agent = item.agent as string;
        const cap = caps.get(agent);
        const taken = running.get(agent) ?? 0;
        if (cap !== undefined && taken >= cap) continue;
        running.set(agent, taken + 1);
        found.push(item);
      }
      return Promise.resolve(found);
    },
    renewLease(streamId, owner, leaseMs, fence) {
      try {
        assertLeaseMs(leaseMs, 'renewLease: leaseMs');
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const entry = streams.get(streamId);
      if (entry?.status !== 'running' || entry.owner !== owner) return Promise.resolve(false);
      if (fence !== undefined && entry.fence !== fence) return Promise.resolve(false);
      streams.set(streamId, { ...entry, leaseUntil: now() + leaseMs });
      return Promise.resolve(true);
    },
    unservedWork(options) {
      try {
        assertFindWorkOptions(options);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const at = now();
      const found: (WorkItem & { readonly sinceMs: number })[] = [];
      for (const [streamId, entry] of streams) {
        if (entry.agent !== undefined && options.agents.includes(entry.agent)) continue;
        const reason = reasonOf(entry, at);
        if (reason === undefined) continue;
        const sinceMs = reason === 'leaseLapsed' ? (entry.leaseUntil ?? entry.since) : entry.since;
        found.push({
          streamId,
          reason,
          ...(entry.agent === undefined ? {} : { agent: entry.agent }),
          since: iso(sinceMs),
          sinceMs,
        });
      }
      found.sort((a, b) => a.sinceMs - b.sinceMs);
      return Promise.resolve(
        found.slice(0, options.limit).map(({ sinceMs: _since, ...item }) => item),
      );
    },
    caps: () => Promise.resolve(Object.fromEntries(caps)),
    setCaps(given) {
      try {
        assertAgentCaps(given);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const before: Record<string, number> = {};
      for (const [agent, cap] of Object.entries(given)) {
        const had = caps.get(agent);
        if (had !== undefined) before[agent] = had;
        if (cap === null) caps.delete(agent);
        else caps.set(agent, cap);
      }
      // A raised or removed cap may let work through that findWork held back.
      for (const wake of [...waiters]) wake();
      return Promise.resolve(before);
    },
    heartbeat(worker) {
      const at = now();
      const startedAt = workers.get(worker.id)?.startedAt ?? at;
      workers.set(worker.id, {
        info: { ...worker, runs: [...worker.runs] },
        startedAt,
        heartbeatAt: at,
      });
      return Promise.resolve();
    },
    retire(workerId) {
      workers.delete(workerId);
      return Promise.resolve();
    },
    listWorkers(options = {}) {
      const at = now();
      const { withinMs } = options;
      return Promise.resolve(
        [...workers.values()]
          .filter((worker) => withinMs === undefined || at - worker.heartbeatAt <= withinMs)
          .map(({ info, startedAt, heartbeatAt }) => ({
            ...info,
            runs: [...info.runs],
            startedAt: iso(startedAt),
            heartbeatAt: iso(heartbeatAt),
          })),
      );
    },
    workOf(streamIds) {
      const result = new Map<string, WorkState>();
      for (const streamId of streamIds ?? [...streams.keys()]) {
        const entry = streams.get(streamId);
        if (entry === undefined) continue;
        result.set(streamId, {
          status: entry.status,
          ...(entry.agent === undefined ? {} : { agent: entry.agent }),
          ...(entry.owner === undefined ? {} : { owner: entry.owner }),
          ...(entry.leaseUntil === undefined ? {} : { leaseUntil: iso(entry.leaseUntil) }),
          ...(entry.fence === undefined ? {} : { fence: entry.fence }),
        });
      }
      return Promise.resolve(result);
    },
    waitForWork(ms, signal) {
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        if (signal?.aborted === true) done();
        else signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
  const fenced = (streamId: string): FencedEntry | undefined => streams.get(streamId);
  const judgeClaimCap = (streamId: string, options: Pick<AppendOptions, 'claim' | 'work'>) => {
    const agent = cappedAgentOf(options, streams.get(streamId)?.agent);
    const cap = agent === undefined ? undefined : caps.get(agent);
    if (agent === undefined || cap === undefined) return;
    const at = now();
    let running = 0;
    for (const other of runningOf.get(agent) ?? []) {
      const leaseUntil = streams.get(other)?.leaseUntil;
      if (other !== streamId && (leaseUntil === undefined || leaseUntil > at)) running += 1;
    }
    judgeCap(streamId, agent, cap, running);
  };
  return { index, record, fenced, judgeCap: judgeClaimCap, now };
}

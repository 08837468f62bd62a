import type { WorkEntry, WorkIndex, WorkStatus } from '../ports/workIndex.js';

/** A registered agent name: printable, no spaces, so it reads the same in every listing. */
export const AGENT_NAME = /^[a-zA-Z0-9._:-]{1,128}$/;

/** The statuses a work-index entry may have (SPEC WRK-2). */
export const workStatuses: readonly WorkStatus[] = [
  'requested',
  'ready',
  'running',
  'waiting',
  'idle',
];

/**
 * Throws a `RangeError` naming the field unless `work` (the `work` option of an append to
 * `streamId`) is a valid work-index entry: a known status, string `agent` and `owner` when given,
 * and a whole number `leaseMs` >= 0 when given. Checked before anything is written.
 */
export function assertValidWorkEntry(streamId: string, work: WorkEntry): void {
  const where = `the work option of the append to stream ${streamId}`;
  if (!workStatuses.includes(work.status)) {
    throw new RangeError(
      `${where}: status must be one of ${workStatuses.join(', ')}, not ${String(work.status)}`,
    );
  }
  for (const key of ['agent', 'owner'] as const) {
    const value = work[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new RangeError(`${where}: ${key} must be a non-empty string, not ${String(value)}`);
    }
  }
  if (work.leaseMs !== undefined) assertLeaseMs(work.leaseMs, `${where}: leaseMs`);
}

/** Throws a `RangeError` naming `what` unless `leaseMs` is a whole number of milliseconds >= 0. */
export function assertLeaseMs(leaseMs: unknown, what: string): asserts leaseMs is number {
  if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 0) {
    throw new RangeError(
      `${what} must be a whole number of milliseconds >= 0, not ${String(leaseMs)}`,
    );
  }
}

/** True when an entry of this status makes its stream need work at once (and wakes workers). */
export function needsWorkNow(status: WorkStatus): boolean {
  return status === 'requested' || status === 'ready';
}

/** The options of `WorkIndex.findWork`. */
export type FindWorkOptions = Parameters<WorkIndex['findWork']>[0];

/**
 * Throws a `RangeError` naming the option unless `options` are valid `findWork` options: a whole
 * `limit` >= 0 and `agents` an array of strings.
 */
export function assertFindWorkOptions(options: FindWorkOptions): void {
  const { limit, agents } = options;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`findWork: limit must be a whole number >= 0, not ${String(limit)}`);
  }
  if (!Array.isArray(agents) || agents.some((agent) => typeof agent !== 'string')) {
    throw new RangeError('findWork: agents must be an array of agent names');
  }
}

/**
 * Throws a `RangeError` naming the agent name unless `caps` (of `WorkIndex.setCaps`, SPEC WRK-10)
 * is an object whose every key is a registered agent name (1 to 128 letters, digits, `.`, `_`,
 * `:` or `-`) and every value a whole number >= 0, or `null` (no cap). Checked before anything is
 * written.
 */
export function assertAgentCaps(
  caps: unknown,
  what = 'setCaps',
): asserts caps is Readonly<Record<string, number | null>> {
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) {
    throw new RangeError(`${what}: caps must be an object of agent names, not ${String(caps)}`);
  }
  for (const [agent, cap] of Object.entries(caps)) {
    if (!AGENT_NAME.test(agent)) {
      throw new RangeError(
        `${what}: ${JSON.stringify(agent)} is no agent name: use 1 to 128 letters, digits, '.', '_', ':' or '-'`,
      );
    }
    if (cap !== null && (typeof cap !== 'number' || !Number.isSafeInteger(cap) || cap < 0)) {
      throw new RangeError(
        `${what}: the cap of agent ${agent} must be a whole number >= 0 or null, not ${String(cap)}`,
      );
    }
  }
}

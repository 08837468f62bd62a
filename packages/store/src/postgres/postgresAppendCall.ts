import type { PoolClient, QueryResult } from 'pg';
import type { FencedEntry } from '@agentlog/core/store-kit';
import type { AppendOptions, NewStreamEvent, WorkEntry } from '@agentlog/core';
import { appendInsertSql, appendReadSql, notAsPredicted } from './postgresAppendFunction.js';
import { corked } from './postgresPipeline.js';
import type { PostgresNames } from './postgresSchema.js';

/** An event as the append's statement takes it: serialised before the transaction starts. */
export interface SerializedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/** One call of the append function (see `appendFunctionSql`). */
export interface AppendCall {
  readonly streamId: string;
  readonly mode: 'check' | 'read' | 'write';
  readonly lock: boolean;
  /** The revision of the first event; `null`: unknown (mode `read`). */
  readonly first: number | null;
  readonly fence: number | undefined;
  readonly start: boolean;
  readonly events: readonly SerializedEvent[];
  readonly work: WorkEntry | undefined;
  readonly claim: boolean;
  readonly notifyWork: boolean;
}

/** What the function read of the stream (its row in mode `read`, its error's detail in `check`). */
export interface AppendRead {
  readonly o_last: string | number | null;
  readonly o_known_ids: string[] | null;
  readonly o_known_revisions: (string | number)[] | null;
  readonly o_found: boolean | null;
  readonly o_status: FencedEntry['status'] | null;
  readonly o_owner: string | null;
  readonly o_lease_until: number | null;
  readonly o_fence: string | number | null;
  readonly o_now: number | null;
}

/**
 * Runs the append's statement for `call`: the INSERT (modes `check` and `write`), whose row count
 * is the events it wrote, or the read. A named statement, so each connection parses and plans it
 * once; its messages (bind, describe, execute, sync) leave in one write (`corked`).
 */
export function runAppendCall(
  client: PoolClient,
  names: PostgresNames,
  call: AppendCall,
): Promise<QueryResult<AppendRead>> {
  const reads = call.mode === 'read';
  const { work } = call;
  const running = work?.status === 'running';
  const events = call.events;
  // In the order of `appendInsertSql` ($1-$16) and `appendReadSql` (without $8-$10).
  const values = [
    call.streamId,
    call.mode,
    call.lock,
    call.first,
    call.fence ?? null,
    call.start,
    events.map((event) => event.eventId),
    ...(reads
      ? []
      : [
          events.map((event) => event.type),
          events.map((event) => event.data),
          events.map((event) => event.metadata),
        ]),
    work?.status ?? null,
    work?.agent ?? null,
    running ? (work.owner ?? null) : null,
    running ? (work.leaseMs ?? null) : null,
    call.claim,
    call.notifyWork,
  ];
  return corked(client, () =>
    client.query<AppendRead>({
      name: reads ? 'agentlog_append_read_v3' : 'agentlog_append_v3',
      text: reads ? appendReadSql(names) : appendInsertSql(names),
      values,
    }),
  );
}

/** What the function read, from the error it raised when the stream was not as predicted. */
export function readOfError(error: unknown): AppendRead | undefined {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
  if (code !== notAsPredicted || typeof detail !== 'string') return undefined;
  return JSON.parse(detail) as AppendRead;
}

/** The stream's run as the function read it, for `judgeFence`. */
export function fencedEntryOf(read: AppendRead): FencedEntry | undefined {
  if (read.o_found !== true || read.o_status === null) return undefined;
  return {
    status: read.o_status,
    owner: read.o_owner,
    leaseUntil: read.o_lease_until,
    fence: read.o_fence === null ? null : Number(read.o_fence),
  };
}

/**
 * Whether an append locks its stream's run before it writes: `judgeFence` can refuse it (a token,
 * a claim, a run start), or it writes the work row (so that two appends that both find no row
 * take turns on the advisory lock). Work rows are never deleted: once there, the row lock
 * serialises every later append that locks.
 */
export function locksRun(
  events: readonly NewStreamEvent[],
  options: AppendOptions | undefined,
): boolean {
  return (
    options?.work !== undefined ||
    options?.claim !== undefined ||
    options?.fence !== undefined ||
    events.some((event) => event.type === 'RunStarted')
  );
}

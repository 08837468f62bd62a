import type { WorkerInfo, WorkState, WorkStatus } from '@agentlog/core';
import { isoTime } from '../work/findWorkQuery.js';
import type { SqliteWorkRow, SqliteWorkerRow } from './prepareSqliteWorkReads.js';

/** A row of `agentlog_work` as `workOf` hands it out: NULL columns left out. */
export function toWorkState(row: SqliteWorkRow): WorkState {
  return {
    status: row.status as WorkStatus,
    ...(row.agent === null ? {} : { agent: row.agent }),
    ...(row.owner === null ? {} : { owner: row.owner }),
    ...(row.lease_until === null ? {} : { leaseUntil: isoTime(row.lease_until) }),
    ...(row.fence === null ? {} : { fence: row.fence }),
  };
}

/** A row of `agentlog_workers` as `listWorkers` hands it out: its times as ISO strings. */
export function toWorkerInfo(row: SqliteWorkerRow): WorkerInfo {
  return {
    id: row.id,
    host: row.host,
    pid: row.pid,
    startedAt: isoTime(row.started_at),
    heartbeatAt: isoTime(row.heartbeat_at),
    runs: JSON.parse(row.runs) as string[],
    ...(row.agents === null ? {} : { agents: JSON.parse(row.agents) as string[] }),
  };
}

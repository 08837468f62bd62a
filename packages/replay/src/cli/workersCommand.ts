import type { WorkerInfo } from '@agentlog/core';
import { alignColumns } from './alignColumns.js';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { dateTime } from './summarizeArgs.js';
import { visibleLine } from './visibleText.js';

/** Workers whose heartbeat is younger than this are listed as live. */
const LIVE_WITHIN_MS = 60_000;

/** `agentlog workers`: the live workers of a store (SPEC WRK-7). */
export const workersCommand: CliCommand = {
  name: 'workers',
  summary: 'list the live workers: id, host, pid, runs held, last heartbeat',
  define(command) {
    command
      .description(
        'Lists the workers whose last heartbeat is younger than a minute, by the store\u2019s clock:\n' +
          '  worker     its id\n' +
          '  host, pid  the machine and process it runs in\n' +
          '  runs       the streams whose runs it holds\n' +
          '  heartbeat  its last heartbeat (UTC)',
      )
      .addOption(storeOption());
  },
  async run(parsed, io) {
    const opened = await openStore(parsed.string('store'), io, { readonly: true });
    try {
      const work = opened.store.work;
      if (work === undefined)
        throw new CliError(`${opened.label} keeps no work index, so it has no workers`);
      const workers = await work.listWorkers({ withinMs: LIVE_WITHIN_MS });
      for (const line of workersTable(workers)) io.stdout(`${line}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};

/** The lines `agentlog workers` prints: a header and one row per worker, or `no live worker`. */
export function workersTable(workers: readonly WorkerInfo[]): string[] {
  if (workers.length === 0) return ['no live worker'];
  const rows = [
    ['worker', 'host', 'pid', 'runs', 'heartbeat'],
    ...workers.map((worker) => [
      worker.id,
      worker.host,
      String(worker.pid),
      worker.runs.length === 0 ? '-' : worker.runs.join(', '),
      worker.heartbeatAt === undefined ? '-' : dateTime(worker.heartbeatAt),
    ]),
  ];
  return alignColumns(rows.map((row) => row.map(visibleLine)));
}

import type { WorkIndex, WorkItem, WorkerInfo } from '@agentlog/core';
import { alignColumns } from './alignColumns.js';
import { capsSection } from './capsSection.js';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { dateTime, visibleLine } from '@agentlog/core/read-models';
import { unservedText, unservedWork } from './unservedWork.js';

/** At most this many streams are listed under `needs a worker:`; more are said to be more. */
const UNSERVED_SHOWN = 50;

/** `agentlog workers`: the live workers of a store, and the work none of them can take (SPEC WRK-7, WRK-9). */
export const workersCommand: CliCommand = {
  name: 'workers',
  summary: 'list the live workers: id, host, pid, agents, runs held, last heartbeat',
  define(command) {
    command
      .description(
        'Lists the workers whose last heartbeat is younger than a minute, by the store\u2019s clock:\n' +
          '  worker     its id\n' +
          '  host, pid  the machine and process it runs in\n' +
          '  agents     the agent names it runs\n' +
          '  runs       the streams whose runs it holds\n' +
          '  heartbeat  its last heartbeat (UTC)\n' +
          'then, under "caps:", the caps per agent name the store holds (at most so many runs at\n' +
          'once, across all workers), and under "needs a worker:", each stream that needs work\n' +
          '(requested, ready, lease lapsed) that no live worker can take: its agent name is none of\n' +
          'theirs, or it records none.',
      )
      .addOption(storeOption());
  },
  async run(parsed, io) {
    const opened = await openStore(parsed.string('store'), io, { readonly: true });
    try {
      const work = opened.store.work;
      if (work === undefined)
        throw new CliError(`${opened.label} keeps no work index, so it has no workers`);
      for (const line of await workersReport(work)) io.stdout(`${line}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};

/**
 * The lines `agentlog workers` prints for a work index: {@link workersTable}, then
 * {@link capsSection} when an agent name has a cap (SPEC WRK-10), then {@link unservedSection}
 * when a stream needs work no live worker can take (SPEC WRK-9).
 */
export async function workersReport(index: WorkIndex): Promise<string[]> {
  const { workers, unserved } = await unservedWork(index, UNSERVED_SHOWN + 1);
  const caps = await index.caps();
  return [
    ...workersTable(workers),
    ...capsSection(caps),
    ...unservedSection(unserved, UNSERVED_SHOWN),
  ];
}

/** The lines `agentlog workers` prints: a header and one row per worker, or `no live worker`. */
export function workersTable(workers: readonly WorkerInfo[]): string[] {
  if (workers.length === 0) return ['no live worker'];
  const rows = [
    ['worker', 'host', 'pid', 'agents', 'runs', 'heartbeat'],
    ...workers.map((worker) => [
      worker.id,
      worker.host,
      String(worker.pid),
      // A worker that did not say its agent names (an older one) is not taken to run none.
      worker.agents === undefined ? 'unknown' : listOrDash(worker.agents),
      listOrDash(worker.runs),
      worker.heartbeatAt === undefined ? '-' : dateTime(worker.heartbeatAt),
    ]),
  ];
  return alignColumns(rows.map((row) => row.map(visibleLine)));
}

/**
 * `needs a worker:` and one line per stream no live worker can take (`  notes-fr  requested, no
 * worker for agent translator`), at most `shown` of them, then `  … and more` when `items` holds
 * more; nothing when there is none.
 */
export function unservedSection(items: readonly WorkItem[], shown: number): string[] {
  if (items.length === 0) return [];
  const rows = items.slice(0, shown).map((item) => [item.streamId, unservedText(item)]);
  const lines = alignColumns(rows.map((row) => row.map(visibleLine))).map((line) => `  ${line}`);
  if (items.length > shown)
    lines.push('  \u2026 and more: agentlog list shows every stream that needs work');
  return ['', 'needs a worker:', ...lines];
}

function listOrDash(names: readonly string[]): string {
  return names.length === 0 ? '-' : names.join(', ');
}

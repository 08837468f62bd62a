import type { WorkIndex } from '@agentlog/core';
import { alignColumns } from './alignColumns.js';
import {
  callsAwaitingDecision,
  dateTime,
  runStatus,
  runSummaries,
  visibleLine,
  workColumn,
} from '@agentlog/core/read-models';
import type { CliCommand } from './cliCommand.js';
import type { CliIo } from './cliIo.js';
import { unreadableMessage } from './loadStream.js';
import { openStore, type OpenedStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { unservedText, unservedWork } from './unservedWork.js';

/** `agentlog list`: every stream of the store with its status, age, length and waiting calls. */
export const listCommand: CliCommand = {
  name: 'list',
  summary: 'list every stream: status, last event, events, calls waiting',
  define(command) {
    command
      .description(
        'Lists every stream of the store, one line each, under a header:\n' +
          '  stream      its id\n' +
          '  status      pending (never ran), running, or stopped: <reason kind> (<cause>)\n' +
          '  last event  when its last event was stored (UTC)\n' +
          '  events      how many events it holds\n' +
          "  waiting     the calls that still need a person's decision: <call id> <tool>, …\n" +
          '  work        with a work index: requested, ready, waiting, or running by <worker> until\n' +
          '              <lease>; a stream that needs work no live worker can take says so:\n' +
          '              ready, no worker for agent <name> (or no agent name recorded)',
      )
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nA stream that cannot be folded is reported on stderr (exit 2); the others are still\n' +
          'listed. See the calls that wait with agentlog pending, one of them with agentlog show.\n\n' +
          "Example:\n  agentlog list --store 'kurrentdb://localhost:2113?tls=false'",
      );
  },
  async run(parsed, io) {
    const opened = await openStore(parsed.string('store'), io, { readonly: true });
    try {
      return await printStreamList(opened, io);
    } finally {
      await opened.close();
    }
  },
};

/**
 * Prints the lines of `agentlog list` for an open store (which it leaves open) and resolves to the
 * exit code: 2 when a stream could not be folded, else 0.
 */
export async function printStreamList(opened: OpenedStore, io: CliIo): Promise<number> {
  // A store with a work index also says which streams need work and who holds a run (WRK-6).
  const index = opened.store.work;
  const rows: string[][] = [
    ['stream', 'status', 'last event', 'events', 'waiting', ...(index ? ['work'] : [])],
  ];
  const work = index === undefined ? undefined : await workCells(index);
  // One read model for `list` and the console's runs page (`runSummaries`); a stream that cannot
  // be folded is one line on stderr and is skipped.
  const { runs, unreadable } = await runSummaries(opened.store);
  for (const { streamId, error } of unreadable)
    io.stderr(`agentlog list: ${visibleLine(unreadableMessage(streamId, error))}\n`);
  for (const { streamId, state, events } of runs) {
    const waiting = callsAwaitingDecision(state)
      .map(({ toolCall }) => `${toolCall.id} ${toolCall.name}`)
      .join(', ');
    rows.push([
      streamId,
      runStatus(state),
      state.lastEventAt === undefined ? '-' : dateTime(state.lastEventAt),
      String(events),
      waiting === '' ? '-' : waiting,
      ...(work === undefined ? [] : [work(streamId)]),
    ]);
  }
  if (rows.length === 1) io.stdout(`no stream in ${visibleLine(opened.label)}\n`);
  // Every cell is one line, its control and invisible characters shown as escapes (SPEC REV-1).
  else
    for (const line of alignColumns(rows.map((row) => row.map(visibleLine))))
      io.stdout(`${line}\n`);
  return unreadable.length > 0 ? 2 : 0;
}

/**
 * The work column of each stream: what the index holds ({@link workColumn}), except for a stream
 * that needs work no live worker can take, which says so (SPEC WRK-9, {@link unservedText}).
 */
async function workCells(index: WorkIndex): Promise<(streamId: string) => string> {
  const entries = await index.workOf();
  // Only these may need work: every stream that does fits in the limit.
  const candidates = [...entries.values()].filter(({ status }) =>
    ['requested', 'ready', 'running'].includes(status),
  ).length;
  const { unserved } = await unservedWork(index, candidates);
  const unservedOf = new Map(unserved.map((item) => [item.streamId, item]));
  return (streamId) => {
    const item = unservedOf.get(streamId);
    return item === undefined ? workColumn(entries.get(streamId)) : unservedText(item);
  };
}

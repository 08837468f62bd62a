import { requestRun } from '@agentlog/core';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { LIVE_WITHIN_MS } from './unservedWork.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog request`: records that a run of a registered agent is wanted (SPEC WRK-1). */
export const requestCommand: CliCommand = {
  name: 'request',
  summary: 'request a run of a registered agent on a stream, for a worker (--agent, --input)',
  define(command) {
    command
      .description(
        'Records that a run is wanted, from this process: appends a RunRequested event with the ' +
          'registered agent name, the run\u2019s text and who asked, and the store\u2019s work index ' +
          'lists the stream as requested, so a worker that has the agent takes it (agentlog worker); ' +
          'nothing is written while a run is in progress or another request waits, without --input ' +
          'when the stream has nothing to run, and on a store without a work index.',
      )
      .argument('<stream>', 'the stream the run is for; a new id starts a new stream')
      .option('--agent <name>', 'the registered agent name a worker builds (required)')
      .option('--input <text>', 'the run\u2019s text, queued as the user message when it starts')
      .option('--by <name>', 'who asks (stored in the event); defaults to $AGENTLOG_USER')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nThe store must keep a work index: SQLite or PostgreSQL (KurrentDB keeps none).\n\n' +
          'Example:\n  agentlog request notes-1.4 --agent release-notes --input "Draft the release notes for 1.4" --by ana',
      );
  },
  async run(parsed, io) {
    const [streamId = ''] = parsed.positionals;
    const agent = parsed.string('agent');
    if (agent === undefined)
      throw new CliError('request needs --agent <name>: the registered agent name a worker builds');
    const input = parsed.string('input');
    const by = nonEmpty(parsed.string('by')) ?? nonEmpty(io.env['AGENTLOG_USER']);
    const opened = await openStore(parsed.string('store'), io);
    try {
      if (opened.kind === 'jsonl')
        throw new CliError(`${opened.label} is a JSONL file, which agentlog only reads`);
      const work = opened.store.work;
      if (work === undefined)
        throw new CliError(
          `${opened.label} keeps no work index, so no worker would find the request; use a SQLite or PostgreSQL store`,
        );
      // Refusals (alreadyRunning, nothingToRun, invalidConfiguration) write nothing; runProgram
      // prints their message as one line with visible escapes (SPEC REV-1) and exits with 2.
      await requestRun(opened.store, {
        streamId,
        agent,
        ...(input === undefined ? {} : { input }),
        ...(by === undefined ? {} : { by }),
      });
      const workers = await work.listWorkers({ withinMs: LIVE_WITHIN_MS });
      // Work no live worker can take is said, never left silent (SPEC WRK-9); a worker that did
      // not say its agent names (an older one) may have the agent.
      const served = workers.some((worker) => worker.agents?.includes(agent) ?? true);
      const who = served
        ? 'a worker that has the agent will take it'
        : `no live worker has agent ${agent} yet: start one with agentlog worker --agents <module>`;
      io.stdout(
        `requested a run of agent ${visibleLine(agent)} on stream ${visibleLine(streamId)}; ${visibleLine(who)}\n`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
};

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

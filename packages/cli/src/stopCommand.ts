import { requestStop } from '@agentlog/core';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog stop`: asks a live run to stop at its next step boundary (SPEC HITL-12). */
export const stopCommand: CliCommand = {
  name: 'stop',
  summary: 'ask the run in progress on a stream to stop (--by, --reason)',
  define(command) {
    command
      .description(
        'Asks the run in progress on a stream to stop, from this process: appends a StopRequested ' +
          'event. The live run, in whatever process it works, finishes its current step, then ends ' +
          'with other(reason), and its AgentStopped records who asked. Nothing is written when the ' +
          'stream has no run in progress.',
      )
      .argument('<stream>', 'the stream whose run should stop')
      .option('--by <name>', 'who asks (required; stored in the events)')
      .option('--reason <text>', 'why (default: stopped by <name>)')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nExample:\n  agentlog stop deploy-2025-06-01 --by ana --reason "wrong branch"',
      );
  },
  async run(parsed, io) {
    const [streamId = ''] = parsed.positionals;
    const by = parsed.string('by');
    if (by === undefined || by === '') throw new CliError('stop needs --by <name>: who asks');
    const reason = parsed.string('reason') ?? `stopped by ${by}`;
    const opened = await openStore(parsed.string('store'), io);
    try {
      if (opened.kind === 'jsonl')
        throw new CliError(`${opened.label} is a JSONL file, which agentlog only reads`);
      if (!(await opened.store.listStreams()).includes(streamId))
        throw new CliError(`${opened.label} has no stream ${visibleLine(streamId)}`);
      await requestStop(opened.store, streamId, { reason, by });
      io.stdout(
        `asked the run of ${visibleLine(streamId)} to stop (by ${visibleLine(by)}): ${visibleLine(reason)}\n`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
};

import { forkStream } from '@agentlog/replay';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog fork`: continues a stream from an earlier revision in a new stream. */
export const forkCommand: CliCommand = {
  name: 'fork',
  summary: 'copy a stream up to a revision into a new stream',
  define(command) {
    command
      .description(
        'Copies the events 0…revision of a stream into a new stream that starts with StreamForked ' +
          '(forkStream): an agent built on the new stream continues as if the original had stopped ' +
          "there. The original stream is not touched. Prints the new stream's last revision.",
      )
      .argument('<stream>', 'the stream to copy')
      .option('--at <revision>', 'the last revision to keep')
      .option('--to <stream>', "the new stream's id; it must not exist")
      .addOption(storeOption())
      .addHelpText('after', '\nExample:\n  agentlog fork hitl-4 --at 7 --to hitl-4-retry');
  },
  async run(parsed, io) {
    const [from = ''] = parsed.positionals;
    const at = parsed.string('at');
    const to = parsed.string('to');
    if (at === undefined || !/^\d+$/.test(at))
      throw new CliError('--at needs a revision (0, 1, …); see agentlog fork --help');
    if (to === undefined) throw new CliError('missing --to <stream>; see agentlog fork --help');
    const opened = await openStore(parsed.string('store'), io);
    try {
      if (opened.kind === 'jsonl')
        throw new CliError(`${opened.label} is a JSONL file, which agentlog only reads`);
      const last = await forkStream(opened.store, { from, atRevision: Number(at), to });
      io.stdout(
        `forked ${visibleLine(from)} at revision ${at} into ${visibleLine(to)}: its last revision is ${last}\n`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
};

import { Option } from 'commander';

/** The `--store <where>` option of every command that reads a store; `purpose` starts its help. */
export function storeOption(purpose = 'the event store'): Option {
  return new Option(
    '--store <where>',
    `${purpose}: a SQLite file (default .agentlog/agentlog.db), a postgres:// or postgresql:// ` +
      'URL, a kurrentdb:// URL, or a .jsonl file (one stream, read-only)',
  );
}

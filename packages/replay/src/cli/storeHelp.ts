/** The `--store` lines of every command's `--help`. */
export const storeHelp = `  --store <where>   the event store: a SQLite file (default .agentlog/agentlog.db),
                    a postgres:// or postgresql:// URL, or a .jsonl file (one stream, read-only)`;

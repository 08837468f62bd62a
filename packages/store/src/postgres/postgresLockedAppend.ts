import type { AppendResult } from '@agentlog/core';
import { runAppendCall, type AppendRead } from './postgresAppendCall.js';
import { checkingCall, judgeRead, type PostgresAppend } from './postgresAppendDecision.js';
import { judgePostgresClaimCap } from './postgresClaimCap.js';
import { inTransaction, withPooledClient } from './postgresClient.js';
import type { PostgresStoreContext } from './postgresStoreContext.js';

/**
 * The append as a transaction, for what the one-statement append does not write: the stream was
 * not as predicted, yet the rules say to write (a retry of which some events are stored, an
 * expectation such as `'any'`, the holder's own claim again). The append function locks the
 * stream's run and reads (mode `read`); `judgeRead` judges that, the locks held; the
 * INSERT writes what it decided (mode `write`); then COMMIT. Throws a retryable error when the
 * insert collides with an append that committed meanwhile (the unique (stream_id, revision)
 * index is the real check of the revision: the read locks no revision), and `UncertainCommit`
 * when the connection failed during the commit.
 */
export function lockedAppend(
  context: PostgresStoreContext,
  append: PostgresAppend,
  begin: string,
): Promise<AppendResult> {
  const { names } = context;
  const call = checkingCall(append);
  return withPooledClient(context.pool, (client, session) =>
    inTransaction(
      client,
      session,
      async () => {
        const { rows } = await runAppendCall(client, names, { ...call, mode: 'read', first: null });
        const read: AppendRead | undefined = rows[0];
        if (read === undefined) throw new Error('the append function returned no row');
        const decided = judgeRead(append, read);
        if (decided.kind === 'done') return decided.result;
        await runAppendCall(client, names, {
          ...call,
          mode: 'write',
          first: decided.firstRevision,
          events: decided.events,
          claim: decided.claims,
        });
        if (decided.claims) await judgePostgresClaimCap(client, names, append);
        return decided.result;
      },
      begin,
    ),
  );
}

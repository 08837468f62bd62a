import type { PoolClient } from 'pg';
import {
  asError,
  mayHaveCommitted,
  UncertainCommit,
  type ClientSession,
} from './postgresClient.js';

/**
 * Runs `statement` in a transaction on `client` in one round trip (issue 28): `begin`, the
 * statement and `COMMIT` are written together, before any answer is read (the pool's clients
 * pipeline their queries), and the server runs them in order. When the statement fails, the
 * server says so before it reaches the COMMIT, which then only ends the failed transaction (its
 * answer is `ROLLBACK`); so nothing is rolled back by another round trip.
 *
 * What is certain stays certain: an error the server answered the statement with (a refusal, a
 * conflict, or the server ending the connection while it ran) is thrown as it is, since the
 * COMMIT behind it cannot have stored anything. A connection lost before the statement's answer,
 * or while it committed, throws `UncertainCommit`: the server may have run the COMMIT already. A
 * COMMIT the server refused is thrown as it is.
 */
export async function inPipelinedTransaction<T>(
  client: PoolClient,
  session: ClientSession,
  begin: string,
  statement: () => Promise<T>,
): Promise<T> {
  const [opened, ran, committed] = await Promise.allSettled(
    corked(client, () => [client.query(begin), statement(), client.query('COMMIT')] as const),
  );
  if (ran.status === 'rejected') {
    if (answeredByServer(ran.reason)) throw ran.reason;
    session.broken ??= asError(ran.reason);
    throw new UncertainCommit(ran.reason);
  }
  if (committed.status === 'rejected') {
    if (!mayHaveCommitted(committed.reason)) throw committed.reason;
    session.broken ??= asError(committed.reason);
    throw new UncertainCommit(committed.reason);
  }
  // A BEGIN that failed while the statement and the COMMIT passed: the statement committed on its
  // own, as a transaction of one statement.
  void opened;
  return ran.value;
}

/** Whether the server answered with this error (it has a severity), not the connection. */
function answeredByServer(error: unknown): boolean {
  return typeof (error as { severity?: unknown } | null)?.severity === 'string';
}

/**
 * Runs `send` with the client's socket corked, so the messages the driver writes for the queries
 * it sends leave in one system call instead of one each (each costs a wake-up of the server). The
 * driver writes them synchronously when the client is idle, as a checked-out client is. Without
 * the socket where this version of the driver keeps it, it just sends.
 */
export function corked<T>(client: PoolClient, send: () => T): T {
  const stream = (client as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } })
    .connection?.stream;
  const socket =
    typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
      ? (stream as { cork(): void; uncork(): void })
      : undefined;
  socket?.cork();
  try {
    return send();
  } finally {
    socket?.uncork();
  }
}

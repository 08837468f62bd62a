import type { Pool, PoolClient } from 'pg';

/** What a checked-out client went through: the error that broke its connection, if one did. */
export interface ClientSession {
  broken: Error | undefined;
}

/**
 * Runs `work` on a client checked out of `pool`, and releases it afterwards: destroyed when its
 * connection broke, back to the pool otherwise. While the client is out it has an `'error'`
 * listener (the pool's own listener only covers idle clients): a connection lost between or during
 * queries, e.g. a server restart, is an `'error'` event on the client that would otherwise crash
 * the process. The query in flight rejects anyway, so the listener only records the error.
 */
export async function withPooledClient<T>(
  pool: Pool,
  work: (client: PoolClient, session: ClientSession) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const session: ClientSession = { broken: undefined };
  const onError = (error: Error): void => {
    session.broken ??= error;
  };
  client.on('error', onError);
  try {
    return await work(client, session);
  } finally {
    client.off('error', onError);
    client.release(session.broken);
  }
}

/**
 * Thrown when the connection failed while a transaction committed: the server may have committed
 * it or not. `cause` is the driver's error.
 */
export class UncertainCommit extends Error {
  override readonly cause: unknown;

  constructor(cause: unknown) {
    super('the connection failed while the transaction committed', { cause });
    this.cause = cause;
  }
}

/**
 * Runs `work` in a transaction on `client`: committed when it returns, rolled back when it throws.
 * A commit that fails without the server saying it failed throws `UncertainCommit`. `begin` is
 * the statement that opens it (`BEGIN` by default; it may set transaction-local settings in the
 * same round trip).
 */
export async function inTransaction<T>(
  client: PoolClient,
  session: ClientSession,
  work: () => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  await client.query(begin);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      session.broken ??= asError(rollbackError);
    });
    throw error;
  }
  try {
    await client.query('COMMIT');
  } catch (error) {
    if (!mayHaveCommitted(error)) throw error;
    session.broken ??= asError(error);
    throw new UncertainCommit(error);
  }
  return result;
}

/**
 * False only when the server answered the COMMIT with an error of its own (the transaction is
 * rolled back); true when the connection failed (no answer) or the server was shutting down
 * (class 57, operator intervention) or dropped the connection (class 08).
 */
export function mayHaveCommitted(error: unknown): boolean {
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  if (typeof severity !== 'string') return true;
  return typeof code === 'string' && (code.startsWith('57') || code.startsWith('08'));
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

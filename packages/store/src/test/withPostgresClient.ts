import pg from 'pg';

/** Runs `work` with a fresh connection to `url`, closed afterwards whatever `work` does. */
export async function withPostgresClient<T>(
  url: string | undefined,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

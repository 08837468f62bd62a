// A worker on a skewed clock, for the WRK-4 test of the PostgreSQL work index
// (postgresWorkIndex.test.ts): the parent runs it under `faketime -f '+10m'` (or '-10m'). It takes
// a run (an append with a running entry and a one-minute lease), renews it, and looks for work
// with the live run of a worker on a true clock in the index; it prints what it saw as one JSON
// line. Its own clock enters nothing: the store judges leases on the server's clock.
import { randomUUID } from 'node:crypto';
import { createPostgresEventStore } from '@agentlog/store/postgres';

/** What the skewed worker prints. */
export interface SkewedWorkerReport {
  /** This process's `Date.now()`, skewed by faketime. */
  readonly clientNow: number;
  /** The store's `now()`: the server's clock. */
  readonly serverNow: string;
  /** When the lease it wrote ends, as the index holds it. */
  readonly leaseUntil: string | undefined;
  /** What `findWork` listed for the agent, on the store's clock. */
  readonly found: string[];
  /** Whether `renewLease` of its own run succeeded. */
  readonly renewed: boolean;
}

const [url, schema, agent, ownStream] = process.argv.slice(2) as [string, string, string, string];
const store = createPostgresEventStore({ connectionString: url, schema });
try {
  await store.appendToStream(
    ownStream,
    [
      {
        type: 'RunStarted',
        data: {},
        metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
      },
    ],
    {
      expectedRevision: 'noStream',
      work: { status: 'running', agent, owner: 'skewed', leaseMs: 60_000 },
    },
  );
  const renewed = await store.work.renewLease(ownStream, 'skewed', 60_000);
  const found = (await store.work.findWork({ limit: 10, agents: [agent] })).map(
    (item) => item.streamId,
  );
  const report: SkewedWorkerReport = {
    clientNow: Date.now(),
    serverNow: (await store.work.now()).toISOString(),
    leaseUntil: (await store.work.workOf([ownStream])).get(ownStream)?.leaseUntil,
    found,
    renewed,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  await store.close();
}

// The fleet's chaos test (issue 28; SPEC WRK-4, WRK-8, RES-5), with real worker processes
// (fleetWorker.ts) on SQLite (a temp file) and on PostgreSQL (a server of the test's own, in a
// fresh schema). The test requests the runs and approves every waiting call; a random worker is
// SIGKILLed every 1–2 s and started again with a new pid; one worker runs under
// `faketime -f '+10m'` and one under `faketime -f '-10m'`; one worker is stopped with SIGSTOP for
// two leases in the middle of a charge that outlasts its lease, then continued; on PostgreSQL the
// server is restarted once during the run. From the events and its logs the test then computes the
// figures (fleetAnalysis.ts) and passes when every run finished, no takeover took a live owner's
// run, the paused worker appended nothing after another claimed its run, no stream was charged
// twice, no event was lost and every stream folds.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../postgres/createPostgresEventStore.js';
import { createSqliteEventStore } from '../../sqlite/createSqliteEventStore.js';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../postgresServer.js';
import { killAllFleets, type SlotPlan } from './fleetControl.js';
import { runFleet, type FleetPlan } from './fleetRun.js';

const faketimeMissing =
  spawnSync('faketime', ['-f', '+0', 'true']).status === 0
    ? undefined
    : 'faketime is not installed (Debian: apt-get install faketime)';
const sqliteSkip = faketimeMissing;
const postgresSkip = faketimeMissing ?? ownPostgresUnavailable();

/** A run lease of 2.5 s: a slow charge takes 3.75 s, a pause 5 s. */
const leaseMs = 2_500;
const seed = Number(process.env['FLEET_CHAOS_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

function slots(count: number): SlotPlan[] {
  const skews = ['+10m', '-10m'];
  return Array.from({ length: count }, (_, index) => ({
    slot: `w${index + 1}`,
    ...(skews[index] === undefined ? {} : { skew: skews[index] }),
  }));
}

const base = {
  leaseMs,
  concurrency: 4,
  pollMs: 250,
  chaosMs: 40_000,
  calmMs: 40_000,
  seed,
} as const;

const title = (store: string, skip: string | undefined): string => {
  const name = `WRK-4 WRK-8 RES-5 a fleet under kill -9, skewed clocks${store === 'PostgreSQL' ? ', SIGSTOP and a server restart' : ' and SIGSTOP'} never takes a live run and never charges twice (${store})`;
  return skip === undefined ? name : `${name} (skipped: ${skip})`;
};

// A test that timed out leaves its fleet running: no worker outlives the file.
afterAll(() => killAllFleets());

describe.skipIf(sqliteSkip !== undefined)('the fleet chaos test on SQLite', () => {
  it(
    title('SQLite', sqliteSkip),
    async () => {
      const plan: FleetPlan = { ...base, runs: 60, slots: slots(3), pauseSlot: 'w3' };
      const { failures } = await runFleet(
        {
          label: 'SQLite',
          kind: 'sqlite',
          location: (dir) => join(dir, 'agentlog.db'),
          open: (dir) => createSqliteEventStore({ path: join(dir, 'agentlog.db') }),
        },
        plan,
      );
      expect(failures).toEqual([]);
    },
    240_000,
  );
});

describe.skipIf(postgresSkip !== undefined)('the fleet chaos test on PostgreSQL', () => {
  let server: OwnPostgres | undefined;
  beforeAll(async () => {
    server = await startOwnPostgres(`fleet-${process.pid}-${randomBytes(3).toString('hex')}`);
  }, 120_000);
  afterAll(async () => {
    await server?.remove();
  }, 60_000);

  it(
    title('PostgreSQL', postgresSkip),
    async () => {
      const own = server;
      if (own === undefined) throw new Error('the server did not start');
      const schema = `agentlog_fleet_${randomBytes(4).toString('hex')}`;
      // The schema exists before the first worker starts.
      const setup = createPostgresEventStore({ connectionString: own.url, schema });
      await setup.listStreams();
      await setup.close();
      const plan: FleetPlan = { ...base, runs: 80, slots: slots(4), pauseSlot: 'w3' };
      const { failures } = await runFleet(
        {
          label: 'PostgreSQL',
          kind: 'postgres',
          location: () => own.url,
          schema,
          open: () => createPostgresEventStore({ connectionString: own.url, schema }),
          restart: { stop: () => own.stop(), start: () => own.start() },
        },
        plan,
      );
      expect(failures).toEqual([]);
    },
    240_000,
  );
});

// SPEC RES-5 against a real server restart: an agent runs in its own OS process on a PostgreSQL
// server of this test's own (postgresServer.ts), which is stopped in the middle of an append, or
// between two appends while the agent waits for its model, and started again on the same port.
// The agent process must live, its command must reject with AgentError storeUnavailable carrying
// the driver's error, and once the server is back a new agent must resume the run and complete it.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { foldStream } from '@agentlog/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../postgres/createPostgresEventStore.js';
import { sleep } from '../conformance/conformanceHelpers.js';
import { eventually as eventuallyWithin } from './eventually.js';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from './postgresServer.js';
import type { RestartCommand, RestartReport } from './restartWorker.js';

const worker = join(import.meta.dirname, 'restartWorker.ts');
const skipReason = ownPostgresUnavailable();
const describeRestart = skipReason === undefined ? describe : describe.skip;
const title = 'RES-5: a PostgreSQL restart while an agent runs';

/** An agent process and the reports it sent, in order. */
class AgentProcess {
  readonly child: ChildProcess;
  readonly reports: RestartReport[] = [];
  readonly exited: Promise<number | null>;
  #waiters: (() => void)[] = [];

  constructor(url: string, schema: string, streamId: string) {
    this.child = fork(worker, [url, schema, streamId], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (report: RestartReport) => {
      this.reports.push(report);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        resolve(code);
        for (const wake of this.#waiters.splice(0)) wake();
      });
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  send(command: RestartCommand): void {
    this.child.send(command);
  }

  /** The first report of `kind` (and `phase`) not yet taken; fails if the process exits first. */
  async next<K extends RestartReport['kind']>(
    kind: K,
    timeoutMs = 30_000,
  ): Promise<Extract<RestartReport, { kind: K }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.reports.findIndex((report) => report.kind === kind);
      if (index >= 0)
        return this.reports.splice(index, 1)[0] as Extract<RestartReport, { kind: K }>;
      if (!this.alive)
        throw new Error(
          `the agent process exited (code ${String(this.child.exitCode)}, signal ${String(this.child.signalCode)}) before reporting ${kind}`,
        );
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the agent process did not report ${kind} in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Proves the process and its event loop live: it answers a ping. */
  async ping(): Promise<void> {
    this.send('ping');
    await this.next('pong', 5_000);
  }

  async end(): Promise<void> {
    if (this.alive) {
      this.send('exit');
      await Promise.race([this.exited, sleep(5_000)]);
    }
    if (this.alive) this.child.kill('SIGKILL');
  }
}

/** Waits up to 10 s: the server restarts in between. */
function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  return eventuallyWithin(check, what, 10_000);
}

/** A client of the test itself; it too must survive the restart, so it listens for errors. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describeRestart(skipReason === undefined ? title : `${title} (skipped: ${skipReason})`, () => {
  let server: OwnPostgres | undefined;
  const running = (): OwnPostgres => {
    if (server === undefined) throw new Error('the server did not start');
    return server;
  };

  beforeAll(async () => {
    server = await startOwnPostgres(`restart-${process.pid}-${randomBytes(3).toString('hex')}`);
  }, 120_000);
  afterAll(async () => {
    await server?.remove();
  }, 60_000);

  /**
   * Runs the agent until its model is asked, lets `interrupt` stop the server, checks the failure
   * and that the process lives, starts the server again and has a new agent resume the run.
   */
  async function restartDuringRun(
    interrupt: (agent: AgentProcess, schema: string) => Promise<void>,
  ): Promise<{ failure: Extract<RestartReport, { kind: 'ended' }>; schema: string }> {
    const { url, port } = running();
    const schema = `agentlog_restart_${randomBytes(4).toString('hex')}`;
    const streamId = 'deploy-run';
    const agent = new AgentProcess(url, schema, streamId);
    try {
      await agent.next('ready');
      await agent.next('asked');
      await interrupt(agent, schema);

      const failure = await agent.next('ended');
      expect(failure).toMatchObject({
        phase: 'first',
        ok: false,
        name: 'AgentError',
        code: 'storeUnavailable',
      });
      expect(failure.message).toMatch(
        new RegExp(
          `^PostgreSQL schema ${schema} on 127\\.0\\.0\\.1:${port}/postgres, stream ${streamId}: `,
        ),
      );
      expect(failure.cause?.message).toBeDefined();
      expect(failure.message).toContain(failure.cause?.message);
      // Connection errors keep arriving for a while after the stop (idle pooled clients).
      await sleep(500);
      expect(agent.alive).toBe(true);
      await agent.ping();

      await running().start();
      expect(running().listeningPort()).toBe(port);
      agent.send('resume');
      expect(await agent.next('ended')).toEqual({ kind: 'ended', phase: 'resumed', ok: true });
      await agent.ping();

      const store = createPostgresEventStore({ connectionString: url, schema });
      try {
        const events = await store.readStream(streamId);
        // Every stored event reads back and folds; the run completed, answered once.
        const { state } = foldStream(events);
        expect(state.status).toBe('stopped');
        expect(events.at(-1)?.type).toBe('AgentStopped');
        expect(events.filter((event) => event.type === 'AssistantMessageAdded')).toHaveLength(1);
        expect(
          events.filter(
            (event) =>
              event.type === 'AgentStopped' &&
              (event.data as { reason?: { kind?: string } }).reason?.kind === 'error',
          ),
        ).toEqual([]);
      } finally {
        await store.close();
      }
      return { failure, schema };
    } finally {
      await agent.end();
      // A failed test may leave the server stopped: the next one needs it.
      if (running().listeningPort() === undefined) await running().start();
    }
  }

  it('RES-5 PostgreSQL: a server stopped in the middle of an append (its INSERT waiting for a lock) fails the run with storeUnavailable carrying the driver error; the process lives; after the restart on the same port a new agent resumes and completes the run', async () => {
    const { url } = running();
    const { failure } = await restartDuringRun(async (agent, schema) => {
      const locker = await connect(url);
      const watcher = await connect(url);
      // Inserts into the events table now wait: the agent's next append stops mid-transaction.
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${schema}.events IN SHARE ROW EXCLUSIVE MODE`);
      agent.send('answer');
      let waiting: number | undefined;
      await eventually(async () => {
        const blocked = await watcher.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
          [`INSERT INTO "${schema}".events%`],
        );
        waiting = blocked.rows[0]?.pid;
        return waiting !== undefined;
      }, 'the append waits for the lock');
      // The shutdown ends the waiting INSERT's backend first, as the server's own stop does:
      // otherwise the lock holder's end could let the INSERT commit in the moment before the stop.
      await watcher.query('SELECT pg_terminate_backend($1)', [waiting]);
      await running().stop();
      await Promise.all([locker.end(), watcher.end()].map((ending) => ending.catch(() => null)));
    });
    // The server terminated the backend of the waiting INSERT.
    expect(failure.message).toContain('the append failed: ');
    expect(failure.cause?.code ?? failure.cause?.message).toMatch(
      /57P01|terminat|Connection terminated/,
    );
  }, 120_000);

  it('RES-5 PostgreSQL: a server stopped between two appends (while the agent waits for its model) fails the next append with storeUnavailable (connection refused); the process lives; after the restart a new agent resumes and completes the run', async () => {
    const { failure } = await restartDuringRun(async (agent) => {
      // The pooled connections of the agent are idle now: the stop breaks them under the pool.
      await running().stop();
      agent.send('answer');
    });
    expect(failure.message).toContain('the append failed: ');
    expect(failure.cause?.code ?? failure.cause?.message).toMatch(/ECONNREFUSED/);
  }, 120_000);
});

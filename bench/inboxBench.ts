import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  tool,
  type NewStreamEvent,
} from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';

// "The inbox shows 10,000 streams in under a second." This bench fills a SQLite store with
// 10,000 streams (1 in 100 stopped on a call that waits for a decision, the rest finished runs
// with a tool call), starts `agentlog serve` on it as a user would, and times GET / (the inbox
// page) and GET /api/pending over HTTP. The console reads the store's work index and folds only the
// streams that wait for a person (SPEC WRK-2). Run with `npm run bench:inbox`.

const streams = Number(process.env['INBOX_STREAMS'] ?? 10_000);
const waitingEvery = 100;
const rounds = 7;
const token = 'bench-token-0123456789abcdef';
const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../packages/cli/dist/main.js');

/** The events of one run of the `deploy` agent: finished (`approve` false: no approval needed) or waiting. */
async function template(waiting: boolean): Promise<NewStreamEvent[]> {
  const store = createInMemoryEventStore();
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys a service.',
    parameters: z.object({ service: z.string(), version: z.string() }),
    execute: ({ service, version }) => `deployed ${service} ${version}`,
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse([
          { name: 'deploy', args: { service: 'api', version: '1.4.2' }, id: 'd1' },
        ]),
        textResponse('Deployed api 1.4.2.'),
      ]),
    )
    .tools([waiting ? approvalRequired(deploy) : deploy])
    .store(store)
    .streamId('template')
    .logger({ warn: () => undefined })
    .build();
  await agent.query('Deploy api 1.4.2');
  return (await store.readStream('template')).map(({ type, data, metadata }) => ({
    type,
    data,
    metadata: { eventId: metadata.eventId, at: metadata.at, schemaVersion: metadata.schemaVersion },
  }));
}

async function fill(path: string): Promise<{ events: number; waiting: number }> {
  const finished = await template(false);
  const waiting = await template(true);
  const store = createSqliteEventStore({ path, durability: 'process' });
  let events = 0;
  let waitingStreams = 0;
  try {
    for (let n = 0; n < streams; n += 1) {
      const waits = n % waitingEvery === 0;
      const source = waits ? waiting : finished;
      await store.appendToStream(
        `${waits ? 'deploy' : 'done'}-${String(n).padStart(5, '0')}`,
        source.map((event) => ({
          ...event,
          metadata: { ...event.metadata, eventId: randomUUID() },
        })),
        // Neither needs a worker: the index holds a finished run as `idle` and a run that waits
        // for a decision as `waiting`, as the agent's own appends write them (SPEC WRK-2).
        { expectedRevision: 'noStream', work: { status: waits ? 'waiting' : 'idle' } },
      );
      events += source.length;
      if (waits) waitingStreams += 1;
    }
  } finally {
    store.close();
  }
  return { events, waiting: waitingStreams };
}

/** Starts `agentlog serve` on the store; resolves with its URL and the process. */
function serve(path: string, users: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--store', path, '--users', users, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((done, fail) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /on (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) done({ url, child });
    });
    child.once('exit', (code) => fail(new Error(`agentlog serve exited with ${code}: ${out}`)));
  });
}

/**
 * The first GET of `path`, then the median and fastest of `rounds` more, in milliseconds.
 */
async function time(
  url: string,
  path: string,
  check: (body: string) => void,
): Promise<{ first: number; median: number; min: number }> {
  const get = async () => {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body}`);
    check(body);
  };
  const warm = performance.now();
  await get();
  const first = performance.now() - warm;
  const times: number[] = [];
  for (let n = 0; n < rounds; n += 1) {
    const start = performance.now();
    await get();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { first, median: times[Math.floor(rounds / 2)] ?? 0, min: times[0] ?? 0 };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-inbox-bench-'));
  let child: ChildProcess | undefined;
  try {
    const path = join(dir, 'agentlog.db');
    const users = join(dir, 'users.json');
    await writeFile(users, JSON.stringify([{ name: 'bench', token }]));
    const filling = performance.now();
    const { events, waiting } = await fill(path);
    const filled = (performance.now() - filling) / 1000;
    console.log(
      `SQLite store: ${streams} streams (${waiting} waiting for a decision, ${streams - waiting} finished), ${events} events, filled in ${filled.toFixed(1)} s`,
    );
    const started = await serve(path, users);
    child = started.child;
    const rows = (html: string) => (html.match(/>decide<\/a>/g) ?? []).length;
    const inbox = await time(started.url, '/', (html) => {
      if (rows(html) !== waiting) throw new Error(`the inbox shows ${rows(html)} calls`);
    });
    const pending = await time(started.url, '/api/pending', (body) => {
      const count = (JSON.parse(body) as { pending: unknown[] }).pending.length;
      if (count !== waiting) throw new Error(`/api/pending lists ${count} calls`);
    });
    console.log(`\n| request | first | median of the next ${rounds} | fastest |`);
    console.log('| --- | ---: | ---: | ---: |');
    for (const [name, figure] of [
      ['GET / (inbox page)', inbox],
      ['GET /api/pending', pending],
    ] as const)
      console.log(
        `| ${name} | ${figure.first.toFixed(0)} ms | ${figure.median.toFixed(0)} ms | ${figure.min.toFixed(0)} ms |`,
      );
  } finally {
    child?.kill('SIGTERM');
    if (process.env['INBOX_KEEP'] === undefined) await rm(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

await main();

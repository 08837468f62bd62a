// A separate OS process in the RES-3 race: builds an agent on a shared waiting stream, waits for
// the parent's "go", resumes the run, and reports how it ended.
import { appendFile } from 'node:fs/promises';
import { Agent, approvalRequired, tool, type EventStore } from '@agentlog/core';
import { counterIds, scriptedModel, textResponse } from '@agentlog/core/testing';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { createSqliteEventStore } from '@agentlog/store';
import { z } from 'zod';
import { raceTools } from './raceTools.js';

const [kind, location, streamId, counterFile, name] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store: EventStore & { close(): unknown } =
  kind === 'sqlite'
    ? createSqliteEventStore({ path: location })
    : createPostgresEventStore({
        connectionString: location,
        schema: process.env.RACE_SCHEMA ?? 'agentlog',
      });

const deploy = approvalRequired(
  tool({
    ...raceTools.deploy,
    parameters: z.object({}),
    execute: async () => {
      await appendFile(counterFile, `${name}\n`);
      // Long enough that the other process starts while this one still runs.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 'deployed';
    },
  }),
);
const agent = await Agent.builder()
  .llm(scriptedModel([textResponse('deployed, done')]))
  .tools([deploy])
  .store(store)
  .streamId(streamId)
  .ids(counterIds(name))
  .build();

process.send?.({ name, ready: true });
process.once('message', () => {
  void agent.run().then(
    () => finish({ name, ok: true }),
    (error: { code?: string; message?: string }) =>
      finish({ name, ok: false, code: error.code, message: error.message }),
  );
});

function finish(result: Record<string, unknown>): void {
  process.send?.(result, () => {
    void Promise.resolve(store.close()).finally(() => process.exit(0));
  });
}

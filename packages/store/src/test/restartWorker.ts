// The agent process of the PostgreSQL restart test (postgresRestart.test.ts): runs an agent on a
// PostgreSQL store while the parent restarts the server, reports how the run ended, and resumes
// the run in a new agent when told. It installs no 'uncaughtException' or 'unhandledRejection'
// handler: a store fault that escapes as one kills this process, and the parent sees it exit.
import {
  Agent,
  isAgentlogError,
  type ChatCompletion,
  type CompletionResponse,
} from '@agentlog/core';
import { counterIds, textResponse } from '@agentlog/core/testing';
import { createPostgresEventStore } from '@agentlog/store/postgres';

/** What the parent sends. */
export type RestartCommand = 'answer' | 'ping' | 'resume' | 'exit';

/** What this process reports. */
export type RestartReport =
  | { readonly kind: 'ready' }
  | { readonly kind: 'asked' }
  | { readonly kind: 'pong' }
  | {
      readonly kind: 'ended';
      readonly phase: 'first' | 'resumed';
      readonly ok: boolean;
      readonly code?: string;
      readonly name?: string;
      readonly message?: string;
      readonly cause?: {
        readonly name?: string;
        readonly message?: string;
        readonly code?: string;
      };
    };

const [url, schema, streamId] = process.argv.slice(2) as [string, string, string];
const store = createPostgresEventStore({ connectionString: url, schema });
const report = (message: RestartReport): void => {
  process.send?.(message);
};

let answer: (() => void) | undefined;
let completions = 0;
/** A model that, on the first completion, tells the parent it was asked and waits for "answer". */
const model: ChatCompletion = {
  complete: async (): Promise<CompletionResponse> => {
    completions += 1;
    if (completions === 1) {
      await new Promise<void>((resolve) => {
        answer = resolve;
        report({ kind: 'asked' });
      });
    }
    return textResponse('the service is deployed');
  },
};

const build = (ids: string) =>
  Agent.builder()
    .llm(model)
    .store(store)
    .streamId(streamId)
    .ids(counterIds(ids))
    // The interrupted run counts as crashed at once, so the new agent may resume it.
    .runLease(1)
    .build();

function ended(phase: 'first' | 'resumed', error?: unknown): RestartReport {
  if (error === undefined) return { kind: 'ended', phase, ok: true };
  const failure = error as { name?: string; message?: string; cause?: unknown };
  const cause = failure.cause as { name?: string; message?: string; code?: unknown } | undefined;
  return {
    kind: 'ended',
    phase,
    ok: false,
    ...(isAgentlogError(error) ? { code: error.code } : {}),
    ...(failure.name === undefined ? {} : { name: failure.name }),
    ...(failure.message === undefined ? {} : { message: failure.message }),
    ...(cause === undefined
      ? {}
      : {
          cause: {
            ...(cause.name === undefined ? {} : { name: cause.name }),
            ...(cause.message === undefined ? {} : { message: cause.message }),
            ...(typeof cause.code === 'string' ? { code: cause.code } : {}),
          },
        }),
  };
}

// The schema exists before the parent locks anything.
await store.listStreams();
const agent = await build('first');
process.on('message', (command: RestartCommand) => {
  switch (command) {
    case 'answer':
      answer?.();
      break;
    case 'ping':
      report({ kind: 'pong' });
      break;
    case 'resume':
      void build('resumed')
        .then((resumed) => resumed.run())
        .then(
          () => report(ended('resumed')),
          (error: unknown) => report(ended('resumed', error)),
        );
      break;
    case 'exit':
      void store
        .close()
        .catch(() => undefined)
        .finally(() => process.exit(0));
      break;
  }
});
report({ kind: 'ready' });
void agent.query('Deploy the service').then(
  () => report(ended('first')),
  (error: unknown) => report(ended('first', error)),
);

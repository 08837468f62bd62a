// A separate OS process of the RES-5 crash suite: builds the agent on the shared stream and runs
// the scenario to completion from whatever the stream holds (approving what waits, ambiguous
// calls included: that is a new approval, TOOL-7's documented re-ask), unless its kill point
// makes it SIGKILL itself first. Every event an append returned as stored is written to the
// stored-events log before anything else happens, so the parent can check none was lost.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  isFeedbackRequired,
  isRequestedByTool,
  ToolFeedback,
  type EventStore,
} from '@agentlog/core';
import { counterIds, scriptedModel } from '@agentlog/core/testing';
import {
  answer,
  approver,
  buildCrashTools,
  systemPrompt,
  task,
  type CrashToolName,
  type StoredEntry,
  type WorkerReport,
} from './crashScenario.js';

const [kind, location, streamId, dir, worker, killPoint = 'none'] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string?,
];

// Only the adapter in use is loaded (not the store index, which loads the KurrentDB client too):
// a worker's start-up is most of a case's time.
const store: EventStore & { close(): unknown } =
  kind === 'sqlite'
    ? (await import('../../sqlite/createSqliteEventStore.js')).createSqliteEventStore({
        path: location,
      })
    : (await import('../../postgres/createPostgresEventStore.js')).createPostgresEventStore({
        connectionString: location,
        schema: process.env.CRASH_SCHEMA ?? 'agentlog',
      });

const [killKind, killArg] = killPoint.split(':') as [string, string?];
const killRevision = killKind === 'rev' ? Number(killArg) : undefined;
const killAppend = killKind === 'append' ? Number(killArg) : undefined;
const killTool = killKind === 'tool' ? (killArg as CrashToolName) : undefined;

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously everywhere: never run on past the kill point.
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}

/** Each command the worker gave and how it ended, and the warnings it logged. */
const trail: string[] = [];
let appends = 0;
/**
 * The store (its reads and label as they are), reporting each stored event and dying at the kill
 * point right after the append.
 */
const reporting: EventStore = {
  ...store,
  async appendToStream(id, events, options) {
    const result = await store.appendToStream(id, events, options);
    appends += 1;
    const first = result.nextExpectedRevision - events.length + 1;
    const lines = events.map((event, index) => {
      const entry: StoredEntry = {
        worker,
        append: appends,
        revision: first + index,
        eventId: event.metadata.eventId,
        type: event.type,
      };
      return `${JSON.stringify(entry)}\n`;
    });
    appendFileSync(join(dir, 'stored.jsonl'), lines.join(''));
    if (killRevision !== undefined && result.nextExpectedRevision >= killRevision) die();
    if (killAppend !== undefined && appends >= killAppend) die();
    return result;
  },
};

const tools = buildCrashTools(join(dir, 'effects.jsonl'), worker, (name) => {
  if (name === killTool) die();
});

const agent = await Agent.builder()
  // Three completions at most, as in an uninterrupted run: one more fails the run.
  .llm(scriptedModel([answer, answer, answer]))
  .systemPrompt(systemPrompt)
  .tools(tools)
  .store(reporting)
  .streamId(streamId)
  .ids(counterIds(worker))
  // The killed owner's run may be resumed at once (RES-3 lease).
  .runLease(0)
  .logger({ warn: (message) => trail.push(`warning: ${message}`) })
  .build();

const maxCommands = 6;

async function complete(): Promise<WorkerReport> {
  for (let command = 0; command < maxCommands; command += 1) {
    const state = agent.state();
    const reason = agent.stopReason();
    if (isRequestedByTool(reason)) return { worker, ok: true, stopReason: reason.kind, trail };
    if (isFeedbackRequired(reason)) {
      // Every waiting call is approved, an ambiguous one too (a new approval: TOOL-7's re-ask),
      // and a shadowed one as well: the person says yes to whatever the agent waits for.
      for (const pending of agent.pendingFeedback()) {
        if (state.feedback[pending.toolCall.id] !== undefined) continue;
        const marks = [
          ...(pending.ambiguous === true ? ['ambiguous'] : []),
          ...(pending.shadowed === true ? ['shadowed'] : []),
        ];
        await agent.context().feedbackReceived(pending.toolCall, ToolFeedback.approved(), {
          by: approver,
          ...(pending.ambiguous === true ? { note: 'ambiguous after a crash: run it again' } : {}),
        });
        trail.push(
          `approved ${pending.toolCall.id}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`,
        );
      }
    }
    const name = state.revision === -1 ? 'query' : 'run';
    try {
      await (state.revision === -1 ? agent.query(task) : agent.run());
      trail.push(`${name}: stopped ${agent.stopReason()?.kind ?? '(not stopped)'}`);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      trail.push(`${name}: rejected ${code ?? ''} ${message ?? String(error)}`);
    }
  }
  return {
    worker,
    ok: false,
    stopReason: agent.stopReason()?.kind ?? agent.state().status,
    trail,
    error: `not finished after ${maxCommands} commands`,
  };
}

const report = await complete().catch((error: unknown): WorkerReport => ({
  worker,
  ok: false,
  trail,
  error: error instanceof Error ? (error.stack ?? error.message) : String(error),
}));
process.send?.(report, () => {
  void Promise.resolve(store.close()).finally(() => process.exit(0));
});

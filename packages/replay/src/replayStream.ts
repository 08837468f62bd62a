import {
  type Agent,
  createInMemoryEventStore,
  decodeEvent,
  foldEvents,
  ReplayDivergenceError,
  type AgentBuilder,
  type AgentEvent,
  type StreamEvent,
} from '@agentlog/core';
import { counterIds } from '@agentlog/core/testing';
import { createReplayModel } from './createReplayModel.js';
import { recordedInputs } from './recordedInputs.js';
import { recordedResults } from './recordedResults.js';
import { commandFor } from './replayCommands.js';
import { upgradeRecording } from './upgradeRecording.js';
import { structuralDiff } from './structuralDiff.js';

/** Options of {@link replayStream}. */
export interface ReplayOptions {
  /** Builds the agent as it was recorded: tools, system prompt, hooks, limits. */
  readonly agent: () => AgentBuilder;
  /** Run the real tools, or serve their recorded outcomes. Default `'recorded'`. */
  readonly tools?: 'live' | 'recorded';
  /** The recorded stream's id (it is part of idempotency keys); derived from the stream by default. */
  readonly streamId?: string;
}

/** The outcome of a replay: the produced events, and the first divergence if there is one. */
export type ReplayResult =
  | { readonly ok: true; readonly events: StreamEvent[] }
  | {
      readonly ok: false;
      readonly divergence: ReplayDivergenceError;
      readonly events: StreamEvent[];
    };

/**
 * Replays a recorded stream (SPEC RPL-2, RPL-5): a fold of its recorded inputs through a fresh
 * agent's decider. The caller's commands (runs, decisions with their author, summaries, stop
 * requests) are given again, the model answers and the tools' own results are served from the
 * recording, and what others wrote during a run is taken in where it was recorded; only the
 * caller's hooks run again. The produced events are compared with the recorded ones, one by one.
 * Event ids and times are not compared; the clock reads the recorded times.
 */
export async function replayStream(
  recorded: readonly StreamEvent[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  const decoded = recorded.map(decodeEvent);
  foldEvents(decoded);
  // A recording of an older schema is compared in today's order of events.
  const events = upgradeRecording(recorded, decoded);
  const streamId = options.streamId ?? deriveStreamId(events);
  const store = createInMemoryEventStore();
  const seeded = events[0]?.type === 'StreamForked' ? events[0].data.atRevision + 2 : 0;
  if (seeded > 0) {
    await store.appendToStream(
      streamId,
      recorded
        .slice(0, seeded)
        .map(({ type, data, metadata: { revision: _revision, ...metadata } }) => ({
          type,
          data,
          metadata,
        })),
      { expectedRevision: 'noStream' },
    );
  }
  const model = createReplayModel(events, { fromRevision: seeded });
  // Every input is in the recording, the time included: nothing is guessed (SPEC RPL-5).
  const channel = { recordedInputs: recordedInputs(events, seeded) };
  const ref: { agent?: Agent } = {};
  let builder = options
    .agent()
    .llm(model)
    .store(store)
    .streamId(streamId)
    .clock(recordedClock(events, () => ref.agent?.state().revision ?? seeded - 1))
    .ids(counterIds('replay'))
    .logger({ warn: () => undefined });
  // The registered name the recorded runs ran under is given again, so their RunStarted match.
  const named = events.find(
    (event) => event.type === 'RunStarted' && event.data.agent !== undefined,
  );
  if (named?.type === 'RunStarted' && named.data.agent !== undefined)
    builder = builder.name(named.data.agent);
  if ((options.tools ?? 'recorded') === 'recorded') {
    builder = builder.serveToolResults(recordedResults(events.slice(seeded)));
  }
  const agent = await builder.build();
  ref.agent = agent;
  const produced = () => store.readStream(streamId);
  let cursor = seeded;
  while (cursor < events.length) {
    const event = events[cursor] as AgentEvent;
    const command = commandFor(event, channel);
    if (command === undefined) {
      return diverged(
        eventDivergence(
          cursor,
          event,
          undefined,
          'the recording has an event the replayed agent did not append',
        ),
        await produced(),
      );
    }
    await command.run(agent).catch(() => undefined);
    const now = await produced();
    const differs = now.findIndex(
      (actual, index) => index >= cursor && !sameEvent(events[index], actual),
    );
    const modelDivergence = model.divergence();
    // The earliest difference wins: a changed tool output shows before the request it changes.
    if (modelDivergence && (differs === -1 || isErrorStop(now[differs])))
      return diverged(modelDivergence, now);
    if (differs !== -1) {
      return diverged(
        eventDivergence(differs, events[differs], now[differs], `after ${command.label}`),
        now,
      );
    }
    if (now.length === cursor) {
      return diverged(
        eventDivergence(
          cursor,
          event,
          undefined,
          `the replayed command ${command.label} appended nothing`,
        ),
        now,
      );
    }
    cursor = now.length;
  }
  try {
    model.assertDone();
  } catch (error) {
    if (error instanceof ReplayDivergenceError) return diverged(error, await produced());
    throw error;
  }
  return { ok: true, events: await produced() };
}

function diverged(divergence: ReplayDivergenceError, events: StreamEvent[]): ReplayResult {
  return { ok: false, divergence, events };
}

const comparable = (event: AgentEvent | StreamEvent | undefined) =>
  event === undefined
    ? undefined
    : {
        revision: event.metadata.revision,
        type: event.type,
        data: event.data,
        schemaVersion: event.metadata.schemaVersion,
      };

function isErrorStop(event: StreamEvent | undefined): boolean {
  return (
    event?.type === 'AgentStopped' &&
    (event.data as { reason?: { kind?: string } }).reason?.kind === 'error'
  );
}

function sameEvent(expected: AgentEvent | undefined, actual: StreamEvent | undefined): boolean {
  return JSON.stringify(comparable(expected)) === JSON.stringify(comparable(actual));
}

function eventDivergence(
  index: number,
  expected: AgentEvent | undefined,
  actual: StreamEvent | undefined,
  context: string,
): ReplayDivergenceError {
  const header = `  ${context}: recorded ${expected?.type ?? '(nothing)'}, replayed ${actual?.type ?? '(nothing)'}`;
  return new ReplayDivergenceError(
    'the replayed stream; revision',
    index,
    comparable(expected),
    comparable(actual),
    `${header}${hookHint(expected, actual)}\n${structuralDiff(comparable(expected), comparable(actual))}`,
  );
}

/**
 * The stream id recorded in idempotency keys (`streamId:toolCallId`), or `replay`. The last key
 * counts: a fork's copied events still carry the original stream's id.
 */
function deriveStreamId(events: readonly AgentEvent[]): string {
  for (const event of [...events].reverse()) {
    if (event.type === 'ToolCallStarted') {
      const key = event.data.idempotencyKey;
      const suffix = `:${event.data.toolCall.id}`;
      if (key.endsWith(suffix)) return key.slice(0, -suffix.length);
    }
  }
  return 'replay';
}

/**
 * The recorded clock (SPEC RPL-5): the time the recording holds for the event the agent writes
 * next, so a lease is judged as it was when recorded. Past the recording, a second a call.
 */
function recordedClock(events: readonly AgentEvent[], revision: () => number): () => Date {
  const times = events.map((event) => Date.parse(event.metadata.at));
  let last = Math.max(0, ...times.filter(Number.isFinite));
  return () => {
    const at = times[revision() + 1];
    if (at !== undefined && Number.isFinite(at)) return new Date(at);
    return new Date((last += 1000));
  };
}

/**
 * When the recorded input of an event is the same and only what hooks made of it differs, the
 * hooks did it: they must be deterministic (SPEC RPL-5). Names the hooks that produce the field.
 */
function hookHint(expected: AgentEvent | undefined, actual: StreamEvent | undefined): string {
  if (expected === undefined || actual === undefined || expected.type !== actual.type) return '';
  switch (expected.type) {
    case 'ToolCallCompleted':
    case 'ToolCallFailed':
    case 'FeedbackRequested':
      return ownResult(expected.data) === ownResult(actual.data)
        ? '\n  the tool gave the recorded result (raw): the afterTool or onNewMessage hooks made a different value of it; hooks must be deterministic'
        : "\n  the tool's own result (raw) differs from the recording";
    case 'AssistantMessageAdded':
      return '\n  the model gave the recorded answer: the afterCompletion or onNewMessage hooks made a different message of it; hooks must be deterministic';
    case 'SystemPromptAdded':
    case 'RunRequested':
    case 'RunStarted':
    case 'RunReleased':
    case 'UserMessageQueued':
    case 'UserMessageAdded':
    case 'SummaryAdded':
    case 'ModelResponded':
    case 'ToolCallStarted':
    case 'FeedbackReceived':
    case 'FeedbackConsumed':
    case 'AgentStopped':
    case 'StopRequested':
    case 'WarningRecorded':
    case 'StreamForked':
      return '';
  }
}

/** A tool outcome's own result as JSON: its `raw`, or what the event records when hooks changed nothing. */
function ownResult(data: unknown): string {
  const { raw, output, error, payload } = data as Record<string, unknown>;
  return JSON.stringify(raw ?? { output, error, payload });
}

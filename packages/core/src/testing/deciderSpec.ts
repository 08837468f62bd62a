import { decideCommand, type Command } from '../decider/decideCommand.js';
import {
  DEFAULT_SETTINGS,
  type DeciderSettings,
  type ToolPolicy,
} from '../decider/deciderSettings.js';
import { nextStep, type NextStep } from '../decider/nextStep.js';
import { recordOutcome, type Outcome } from '../decider/recordOutcome.js';
import type { RunCursor } from '../decider/runCursor.js';
import {
  CURRENT_SCHEMA_VERSION,
  type AgentEvent,
  type PendingEvent,
} from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { foldEvents } from '../events/foldEvents.js';
import { counterIds, fixedClock } from './fixedClock.js';
import { partialMismatch } from './partialMatch.js';

/** An expected value: any part of it may be left out, and `undefined` says a key is absent (see {@link partialMismatch}). */
export type Partial_<T> = T extends readonly (infer E)[]
  ? readonly Partial_<E>[]
  : T extends object
    ? { readonly [K in keyof T]?: Partial_<T[K]> | undefined }
    : T;

/** An expected event: its type, and as much of its data as the spec cares about. */
export type ExpectedEvent = {
  [T in PendingEvent['type']]: {
    readonly type: T;
    readonly data?: Partial_<Extract<PendingEvent, { type: T }>['data']>;
  };
}[PendingEvent['type']];

/** What a decider spec is decided with; every setting has a default. */
export interface SpecSettings extends Partial<Omit<DeciderSettings, 'tools'>> {
  /** Tool policies by name; default: only `stop`. */
  readonly tools?: Readonly<Record<string, Partial<ToolPolicy>>>;
}

/** The checks of a spec's outcome. */
export interface DeciderThen {
  /** The decider records exactly these events (partially matched, in order). */
  then(expected: readonly ExpectedEvent[]): void;
  /** The decider rejects with an error of this `code`, whose message contains `message`. */
  thenThrows(code: string, message?: string | RegExp): void;
}

/** The checks of what the decider says happens next. */
export interface NextThen {
  /** The next step, partially matched. */
  then(expected: Partial_<NextStep>): void;
}

/**
 * Given/when/then specs on the decider alone, in the style of Emmett's decider specification:
 * no agent, no store, no model. `given(events)` folds the events; `when(command)` or
 * `when(outcome, cursor)` runs the decider; `then(events)` matches what it records partially,
 * so a spec never pastes a fingerprint, an id or a time.
 *
 * ```ts
 * DeciderSpec.for({ toolRetryLimit: 1 })
 *   .given(eventsOfAFailingCall)
 *   .when({ kind: 'toolAnswered', ... }, cursor)
 *   .then([{ type: 'ToolCallFailed', data: { failureCount: 2 } }]);
 * ```
 */
export const DeciderSpec = {
  for(specSettings: SpecSettings = {}) {
    const settings = settingsOf(specSettings);
    return {
      given(events: readonly PendingEvent[]) {
        const state = stateOf(events);
        return {
          /** The fold of the given events. */
          state,
          when(
            input: Command | Outcome,
            cursor: RunCursor = { phase: 'step', asked: true },
          ): DeciderThen {
            const decide = (): readonly PendingEvent[] =>
              isCommand(input)
                ? decideCommand(state, settings, input, { ownRun: false })
                : recordOutcome(state, settings, cursor, input).events;
            return thenOf(decide);
          },
          /** What happens next, at `cursor` (default: between steps). */
          whenNext(cursor: RunCursor = { phase: 'step', asked: false }): NextThen {
            return {
              then(expected) {
                fail(
                  partialMismatch(expected, nextStep(state, settings, cursor)),
                  'the next step',
                  () => nextStep(state, settings, cursor),
                );
              },
            };
          },
        };
      },
    };
  },
};

const commandKinds = new Set([
  'startRun',
  'requestRun',
  'releaseRun',
  'recordDecision',
  'consumeDecision',
  'stop',
  'addSummary',
]);

function isCommand(input: Command | Outcome): input is Command {
  return commandKinds.has(input.kind);
}

function thenOf(decide: () => readonly PendingEvent[]): DeciderThen {
  return {
    then(expected) {
      const events = decide();
      fail(partialMismatch(expected, events), 'the recorded events', () => events);
    },
    thenThrows(code, message) {
      let error: unknown;
      let events: readonly PendingEvent[] | undefined;
      try {
        events = decide();
      } catch (caught) {
        error = caught;
      }
      const actual = (error as { code?: unknown } | undefined)?.code;
      const text = error instanceof Error ? error.message : '';
      const matches =
        message === undefined ||
        (typeof message === 'string' ? text.includes(message) : message.test(text));
      if (actual === code && matches) return;
      throw new Error(
        error === undefined
          ? `decider spec: expected a rejection with code ${code}, but it recorded ${JSON.stringify(events)}`
          : `decider spec: expected a rejection with code ${code}${message === undefined ? '' : ` and message ${String(message)}`}, got ${String(actual)}: ${text}`,
      );
    },
  };
}

function fail(problem: string | undefined, what: string, actual: () => unknown): void {
  if (problem === undefined) return;
  throw new Error(
    `decider spec: ${what} differ at ${problem}\nactual: ${JSON.stringify(actual(), null, 2)}`,
  );
}

function settingsOf(spec: SpecSettings): DeciderSettings {
  const tools = new Map<string, ToolPolicy>();
  for (const [name, policy] of Object.entries(spec.tools ?? { stop: {} })) {
    tools.set(name, {
      idempotent: policy.idempotent ?? false,
      gated: policy.gated ?? false,
      ...(policy.conditional === true ? { conditional: true } : {}),
    });
  }
  return {
    streamId: spec.streamId ?? 'spec',
    ...(spec.systemPrompt === undefined ? {} : { systemPrompt: spec.systemPrompt }),
    ...(spec.limit === undefined ? {} : { limit: spec.limit }),
    toolRetryLimit: spec.toolRetryLimit ?? DEFAULT_SETTINGS.toolRetryLimit,
    stopOnAssistant: spec.stopOnAssistant ?? DEFAULT_SETTINGS.stopOnAssistant,
    runLeaseMs: spec.runLeaseMs ?? DEFAULT_SETTINGS.runLeaseMs,
    tools,
  };
}

/** Folds given events, stamped with ids and times of a fixed clock; an invalid one throws. */
function stateOf(events: readonly PendingEvent[]): AgentState {
  const ids = counterIds('given');
  const clock = fixedClock();
  const stamped = events.map(
    (event, revision) =>
      ({
        type: event.type,
        data: event.data,
        metadata: {
          eventId: ids(),
          at: clock().toISOString(),
          revision,
          schemaVersion: CURRENT_SCHEMA_VERSION,
        },
      }) as AgentEvent,
  );
  return foldEvents(stamped);
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agentEvent.js';
import { initialState, type AgentState, type ToolCallState } from '../events/agentState.js';
import { decodeEvent } from '../events/decodeEvent.js';
import { evolve } from '../events/evolve.js';
import { foldEvents } from '../events/foldEvents.js';
import { toolCallHash } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import { play, scenarioArb } from './loopScenarios.js';

// A plain reference fold, written for this test: it copies the whole state at every event, the
// obvious and slow way. The real fold shares the growing parts of the state between states and
// folds in place; both must give deep-equal states at every revision, and no state handed out
// may change when later events are folded, on the same lineage or on a branch.

type Plain = { -readonly [K in keyof AgentState]: AgentState[K] };

function referenceEvolve(state: Plain, event: AgentEvent): Plain {
  const next = referenceApply(structuredClone(state), event);
  next.revision = event.metadata.revision;
  next.lastEventAt = event.metadata.at;
  return next;
}

function referenceApply(state: Plain, event: AgentEvent): Plain {
  const calls = state.toolCalls as Record<string, ToolCallState>;
  const answer = (id: string, status: 'completed' | 'failed', output: ToolOutput) => {
    const call = calls[id];
    if (call === undefined) return;
    calls[id] = { ...call, status };
    state.history = [...state.history, { role: 'tool', toolCall: call.toolCall, output }];
  };
  switch (event.type) {
    case 'SystemPromptAdded':
      state.systemPromptAdded = true;
      state.history = [...state.history, { role: 'system', text: event.data.text }];
      break;
    case 'RunStarted':
      delete state.stopReason;
      delete state.stopCause;
      Object.assign(state, { status: 'running', runs: state.runs + 1, runMode: event.data.mode });
      Object.assign(state, { completionsInRun: 0, lastResponseEmpty: false });
      delete state.runRequest;
      delete state.released;
      if (event.data.worker === undefined) delete state.worker;
      else state.worker = event.data.worker;
      break;
    case 'RunRequested':
      state.agent = event.data.agent;
      state.runRequest = {
        ...(event.data.input === undefined ? {} : { input: event.data.input }),
        ...(event.data.by === undefined ? {} : { by: event.data.by }),
        revision: event.metadata.revision,
      };
      break;
    case 'RunReleased':
      state.released = true;
      break;
    case 'UserMessageQueued':
      state.queued = [...state.queued, event.data.text];
      break;
    case 'UserMessageAdded':
      state.queued = state.queued.slice(1);
      state.history = [...state.history, { role: 'user', text: event.data.text }];
      break;
    case 'SummaryAdded':
      state.history = [...state.history, { role: 'summary', text: event.data.text }];
      break;
    case 'ModelResponded': {
      const { message, toolCalls } = event.data.response;
      state.completionsInRun += 1;
      state.historyLengthAtLastCompletion = state.history.length;
      state.lastResponseEmpty = (message === undefined || message === '') && toolCalls.length === 0;
      break;
    }
    case 'AssistantMessageAdded':
      for (const toolCall of event.data.message.toolCalls)
        calls[toolCall.id] = { toolCall, status: 'open', invocations: 0 };
      state.history = [...state.history, event.data.message];
      break;
    case 'ToolCallStarted': {
      const call = calls[event.data.toolCall.id];
      if (call !== undefined)
        calls[call.toolCall.id] = { ...call, status: 'started', invocations: call.invocations + 1 };
      break;
    }
    case 'ToolCallCompleted':
      answer(event.data.toolCallId, 'completed', event.data.output);
      break;
    case 'ToolCallFailed': {
      const call = calls[event.data.toolCallId];
      answer(
        event.data.toolCallId,
        'failed',
        event.data.output ?? { kind: 'fail', text: event.data.error },
      );
      if (call !== undefined)
        (state.failureCounts as Record<string, number>)[toolCallHash(call.toolCall)] =
          event.data.failureCount;
      break;
    }
    case 'FeedbackRequested': {
      const call = calls[event.data.toolCall.id];
      if (call === undefined) break;
      const { feedbackPayload: _dropped, ...rest } = call;
      calls[call.toolCall.id] = {
        ...rest,
        status: 'waiting',
        askedAt: event.metadata.at,
        ...(event.data.payload === undefined ? {} : { feedbackPayload: event.data.payload }),
        ...(event.data.ambiguous === true ? { ambiguous: true } : {}),
      };
      break;
    }
    case 'FeedbackReceived': {
      const { toolCallId, feedback, by, note } = event.data;
      (state.feedback as Record<string, unknown>)[toolCallId] = {
        feedback,
        ...(by === undefined ? {} : { by }),
        ...(note === undefined ? {} : { note }),
      };
      break;
    }
    case 'FeedbackConsumed':
      delete (state.feedback as Record<string, unknown>)[event.data.toolCallId];
      break;
    case 'AgentStopped':
      Object.assign(state, { status: 'stopped', stopReason: event.data.reason });
      state.stopCause = event.data.cause;
      delete state.stopRequest;
      break;
    case 'StopRequested':
      state.stopRequest ??= {
        reason: event.data.reason,
        ...(event.data.by === undefined ? {} : { by: event.data.by }),
        ...(event.data.hook === undefined ? {} : { hook: event.data.hook }),
        revision: event.metadata.revision,
      };
      break;
    case 'WarningRecorded': {
      const call = event.data.toolCallId === undefined ? undefined : calls[event.data.toolCallId];
      if (event.data.code === 'approvalShadowed' && call !== undefined)
        calls[call.toolCall.id] = { ...call, shadowed: true };
      break;
    }
    case 'StreamForked':
      state.forkedFrom = { fromStream: event.data.fromStream, atRevision: event.data.atRevision };
      break;
  }
  return state;
}

const plainInitial = (): Plain =>
  structuredClone(JSON.parse(JSON.stringify(initialState)) as Plain);
const plain = (state: AgentState): unknown => JSON.parse(JSON.stringify(state));

describe('the fold against a plain reference fold', () => {
  it('EVT-1 EVT-4 evolve and foldEvents give the reference state at every revision, and no state handed out changes later', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarioArb,
        fc.nat(),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        async (scenario, branchSeed, touchEarly) => {
          const events = (await play(scenario)).events.map(decodeEvent);
          const references: Plain[] = [];
          let reference = plainInitial();
          for (const event of events)
            references.push((reference = referenceEvolve(reference, event)));

          // One fold of the whole stream.
          expect(plain(foldEvents(events))).toStrictEqual(plain(reference));
          expect(foldEvents(events)).toStrictEqual(reference);

          // Event by event: some states are read at once, the others only at the end, after
          // their lineage moved on and a branch was folded off one of them.
          const held: AgentState[] = [];
          const early: unknown[] = [];
          let state = initialState;
          for (const [index, event] of events.entries()) {
            state = evolve(state, event);
            held.push(state);
            early.push(touchEarly[index % 64] === true ? plain(state) : undefined);
          }
          if (held.length > 0) {
            const at = branchSeed % held.length;
            const base = held[at] as AgentState;
            const branchEvent = {
              type: 'SummaryAdded',
              data: { text: 'a branch' },
              metadata: {
                eventId: 'branch',
                at: '2026-01-01T00:00:00.000Z',
                revision: base.revision + 1,
                schemaVersion: 1,
              },
            } as const;
            const branch = evolve(base, branchEvent);
            expect(plain(branch)).toStrictEqual(
              plain(referenceEvolve(references[at] as Plain, branchEvent)),
            );
            // The branch folds on too, sharing nothing that the main lineage sees.
            const next = events[at + 1];
            if (next !== undefined && next.type !== 'StreamForked') {
              expect(() =>
                evolve(branch, {
                  ...next,
                  metadata: { ...next.metadata, revision: branch.revision + 1 },
                }),
              ).not.toThrow();
            }
          }
          for (const [index, seen] of held.entries()) {
            expect(plain(seen)).toStrictEqual(plain(references[index] as Plain));
            if (early[index] !== undefined) expect(early[index]).toStrictEqual(plain(seen));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Outcome } from '../decider/recordOutcome.js';
import type { PendingEvent, RawToolResult } from '../events/agentEvent.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { DeciderSpec } from '../testing/deciderSpec.js';

// Specs on the decider alone (no agent, store or model): the loop's rules as pure decisions.

const call = (id: string, name = 'echo', args = '{}'): ToolCall => ({ id, name, args });
const runStarted: PendingEvent[] = [
  { type: 'RunStarted', data: { mode: 'query', input: 'go' } },
  { type: 'UserMessageQueued', data: { text: 'go' } },
  { type: 'UserMessageAdded', data: { text: 'go' } },
];
const answered = (calls: ToolCall[], text?: string): PendingEvent[] => [
  {
    type: 'ModelResponded',
    data: {
      requestFingerprint: 'f',
      response: { ...(text ? { message: text } : {}), toolCalls: calls },
    },
  },
  {
    type: 'AssistantMessageAdded',
    data: { message: { role: 'assistant', ...(text ? { text } : {}), toolCalls: calls } },
  },
];
const started = (calls: ToolCall[]): PendingEvent[] =>
  calls.map((toolCall) => ({
    type: 'ToolCallStarted',
    data: { toolCall, idempotencyKey: `spec:${toolCall.id}` },
  }));
const completed = (id: string, text: string): PendingEvent => ({
  type: 'ToolCallCompleted',
  data: { toolCallId: id, output: ToolOutput.text(text) },
});
const tools = { stop: {}, echo: { idempotent: true }, deploy: {}, gate: { gated: true } };
const spec = (settings = {}) => DeciderSpec.for({ tools, ...settings });
const inStep = { phase: 'step', asked: true } as const;
const text = (value: string) => ({ ok: true as const, output: ToolOutput.text(value) });
/** A call's tool ran: its own result, and what hooks made of it. */
const answeredWith = (
  toolCall: ToolCall,
  raw: RawToolResult,
  result: RawToolResult = raw,
): Outcome => ({
  kind: 'toolAnswered',
  plan: { kind: 'invoke', toolCall, ambiguous: false, consumeAfter: false },
  raw,
  result,
  consumed: [],
});

describe('the decider', () => {
  it('LOOP-2 a first query records RunStarted, the system prompt and the queued text; nothing to run rejects', () => {
    spec({ systemPrompt: 'terse' })
      .given([])
      .when({ kind: 'startRun', mode: 'query', input: 'hi' })
      .then([
        { type: 'RunStarted', data: { mode: 'query', input: 'hi' } },
        { type: 'SystemPromptAdded', data: { text: 'terse' } },
        { type: 'UserMessageQueued', data: { text: 'hi' } },
      ]);
    spec()
      .given([
        ...runStarted,
        ...answered([], 'done'),
        {
          type: 'AgentStopped',
          data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
        },
      ])
      .when({ kind: 'startRun', mode: 'run' })
      .thenThrows('nothingToRun', 'has nothing to run');
  });

  it('LOOP-2 HITL-4 setup resumes the open calls of the last batch before the queued texts move', () => {
    const waiting = [
      ...runStarted,
      ...answered([call('d1', 'deploy')]),
      ...started([call('d1', 'deploy')]),
    ];
    spec()
      .given([
        ...waiting,
        { type: 'FeedbackRequested', data: { toolCall: call('d1', 'deploy') } },
        {
          type: 'AgentStopped',
          data: {
            reason: { kind: 'feedbackRequired', toolCall: call('d1', 'deploy') },
            cause: 'feedbackRequired',
          },
        },
        { type: 'RunStarted', data: { mode: 'run' } },
      ])
      .whenNext({ phase: 'setup', asked: false })
      .then({ kind: 'invokeBatch', plans: [{ kind: 'invoke', toolCall: { id: 'd1' } }] });
    spec()
      .given([
        { type: 'RunStarted', data: { mode: 'query', input: 'a' } },
        { type: 'UserMessageQueued', data: { text: 'a' } },
      ])
      .whenNext({ phase: 'setup', asked: false })
      .then({ kind: 'beginLoop', events: [{ type: 'UserMessageAdded', data: { text: 'a' } }] });
  });

  it('LOOP-3 LOOP-6 an answer in text ends the run with assistantAnswered; with stopOnAssistant(false) the model is asked again', () => {
    const events = [...runStarted, ...answered([], 'hello')];
    spec()
      .given(events)
      .whenNext()
      .then({
        kind: 'stop',
        events: [
          {
            type: 'AgentStopped',
            data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
          },
        ],
      });
    spec({ stopOnAssistant: false })
      .given([
        ...events,
        { type: 'UserMessageQueued', data: { text: 'more' } },
        { type: 'UserMessageAdded', data: { text: 'more' } },
      ])
      .whenNext()
      .then({ kind: 'askModel' });
  });

  it('LOOP-5 the limit stops the run with limitReached and a warning; LOOP-1 a single step stops with singleStep', () => {
    const events = [
      ...runStarted,
      ...answered([call('e1')]),
      ...started([call('e1')]),
      completed('e1', 'x'),
    ];
    spec({ limit: 1 })
      .given(events)
      .whenNext()
      .then({
        kind: 'stop',
        stop: { cause: 'limitReached' },
        warning: 'agent reached its limit of 1 completions in one run',
      });
    spec()
      .given([{ type: 'RunStarted', data: { mode: 'runOnce' } }, ...events.slice(1)])
      .whenNext()
      .then({ kind: 'stop', stop: { reason: { kind: 'noNewMessages' }, cause: 'singleStep' } });
  });

  it('TOOL-3 failures of one name and args count for the agent’s life and saturate at limit + 1', () => {
    const failed = (id: string, count: number): PendingEvent => ({
      type: 'ToolCallFailed',
      data: { toolCallId: id, error: 'boom', failureCount: count },
    });
    const twins = [call('b', 'deploy'), call('c', 'deploy')];
    const history = [
      ...runStarted,
      ...answered([call('a', 'deploy')]),
      ...started([call('a', 'deploy')]),
      failed('a', 1),
      ...answered(twins),
      ...started(twins),
    ];
    const failure = (id: string) => answeredWith(call(id, 'deploy'), { ok: false, error: 'boom' });
    spec({ toolRetryLimit: 1 })
      .given(history)
      .when(failure('b'), inStep)
      .then([
        { type: 'ToolCallFailed', data: { toolCallId: 'b', failureCount: 2, raw: undefined } },
      ]);
    // The twin of the same batch is recorded without counting past the limit.
    spec({ toolRetryLimit: 1 })
      .given([...history, failed('b', 2)])
      .when(failure('c'), inStep)
      .then([{ type: 'ToolCallFailed', data: { toolCallId: 'c', failureCount: 2 } }]);
  });

  it('STOP-7 STOP-9 the first stop of a step wins and lands when the step ends, after every outcome', () => {
    const calls = [call('s1', 'stop'), call('e1')];
    const given = spec().given([...runStarted, ...answered(calls), ...started(calls)]);
    // A hook asked first: the later stop tool does not replace it.
    const withRequest = {
      ...inStep,
      stop: {
        reason: { kind: 'other' as const, text: 'hook' },
        cause: 'stoppedByCaller' as const,
        hook: 'beforeTool' as const,
      },
    };
    const batchDone = [
      ...runStarted,
      ...answered(calls),
      ...started(calls),
      completed('s1', 'x'),
      completed('e1', 'y'),
    ];
    given
      .when(
        answeredWith(calls[0] as ToolCall, { ok: true, output: ToolOutput.stop() }),
        withRequest,
      )
      .then([{ type: 'ToolCallCompleted', data: { toolCallId: 's1', output: { kind: 'stop' } } }]);
    spec()
      .given(batchDone)
      .whenNext({ phase: 'step', asked: false, stop: withRequest.stop })
      .then({
        kind: 'stop',
        events: [
          {
            type: 'AgentStopped',
            data: {
              reason: { kind: 'other', text: 'hook' },
              cause: 'stoppedByCaller',
              hook: 'beforeTool',
            },
          },
        ],
      });
    // In the step, the stop waits: the step ends first.
    spec()
      .given(batchDone)
      .whenNext({ ...withRequest, invoked: calls })
      .then({ kind: 'endStep' });
  });

  it('STOP-8 RPL-5 the agent inspects the output afterTool left; the tool’s own result is kept beside it', () => {
    const calls = [call('d1', 'deploy')];
    spec()
      .given([...runStarted, ...answered(calls), ...started(calls)])
      .when(
        answeredWith(
          calls[0] as ToolCall,
          { ok: true, output: ToolOutput.fail('403') },
          { ok: true, output: ToolOutput.agentFailed({ deploy: '403' }) },
        ),
        inStep,
      )
      .then([
        {
          type: 'ToolCallCompleted',
          data: {
            output: { kind: 'agentFailed', payload: { deploy: '403' } },
            raw: { ok: true, output: { kind: 'fail', text: '403' } },
          },
        },
      ]);
    // Hooks that change nothing leave no raw copy.
    spec()
      .given([...runStarted, ...answered(calls), ...started(calls)])
      .when(answeredWith(calls[0] as ToolCall, text('ok')), inStep)
      .then([
        {
          type: 'ToolCallCompleted',
          data: { output: { kind: 'text', text: 'ok' }, raw: undefined },
        },
      ]);
  });

  it('HITL-5 a call that waits while a sibling got an output is warned about when the batch ends', () => {
    const calls = [call('g1', 'gate'), call('e1')];
    spec()
      .given([
        ...runStarted,
        ...answered(calls),
        ...started(calls),
        { type: 'FeedbackRequested', data: { toolCall: calls[0] as ToolCall } },
        completed('e1', 'x'),
      ])
      .when({ kind: 'batchEnded', toolCalls: calls }, inStep)
      .then([{ type: 'WarningRecorded', data: { code: 'approvalShadowed', toolCallId: 'g1' } }]);
  });

  it('TOOL-7 a non-idempotent call started before a crash is asked about, its old decision set aside; an idempotent one runs again', () => {
    const calls = [call('d1', 'deploy'), call('e1')];
    spec()
      .given([
        ...runStarted,
        ...answered(calls),
        ...started(calls),
        { type: 'RunStarted', data: { mode: 'run' } },
      ])
      .whenNext({ phase: 'setup', asked: false })
      .then({
        kind: 'invokeBatch',
        durable: false,
        plans: [
          {
            kind: 'answer',
            toolCall: { id: 'd1' },
            ambiguous: true,
            consume: false,
            result: {
              ok: true,
              output: { kind: 'feedbackRequired', payload: { ambiguous: true } },
            },
          },
          { kind: 'invoke', toolCall: { id: 'e1' }, ambiguous: false },
        ],
      });
  });

  it('TOOL-7 HITL-5 a call asked about after a crash is resumed although a sibling ran again, and is not warned about', () => {
    const calls = [call('e1'), call('d1', 'deploy')];
    const resumed: PendingEvent[] = [
      ...runStarted,
      ...answered(calls),
      ...started(calls),
      { type: 'RunStarted', data: { mode: 'run' } },
      ...started(calls),
      completed('e1', 'again'),
      {
        type: 'FeedbackRequested',
        data: { toolCall: call('d1', 'deploy'), payload: { ambiguous: true }, ambiguous: true },
      },
    ];
    spec()
      .given(resumed)
      .when({ kind: 'batchEnded', toolCalls: calls }, { phase: 'setup', asked: false })
      .then([]);
    spec()
      .given([
        ...resumed,
        {
          type: 'AgentStopped',
          data: {
            reason: { kind: 'feedbackRequired', toolCall: call('d1', 'deploy') },
            cause: 'feedbackRequired',
          },
        },
        { type: 'FeedbackReceived', data: { toolCallId: 'd1', feedback: { kind: 'approved' } } },
        { type: 'RunStarted', data: { mode: 'run' } },
      ])
      .whenNext({ phase: 'setup', asked: false })
      .then({
        kind: 'invokeBatch',
        durable: true,
        plans: [{ kind: 'invoke', toolCall: { id: 'd1' }, ambiguous: true, consumeAfter: true }],
      });
  });

  it('WRK-4 the decider judges no clock: a start over a run in progress is recorded and the store judges its claim', () => {
    const live = [...runStarted];
    // The decider takes no clock at all: the store decides who owns the run, on its clock.
    spec()
      .given(live)
      .when({ kind: 'startRun', mode: 'run' })
      .then([{ type: 'RunStarted' }]);
    spec()
      .given([...live, ...answered([], 'hi')])
      .when({ kind: 'startRun', mode: 'query', input: 'again' })
      .then([{ type: 'RunStarted' }, { type: 'UserMessageQueued' }]);
    spec()
      .given(live)
      .when({ kind: 'addSummary', text: 'short' })
      .thenThrows('alreadyRunning', 'has a run in progress in another process');
  });

  it('HITL-3 a decision is accepted only for a call that waits, once', () => {
    const calls = [call('g1', 'gate')];
    const waiting = [
      ...runStarted,
      ...answered(calls),
      ...started(calls),
      { type: 'FeedbackRequested', data: { toolCall: calls[0] as ToolCall } } as PendingEvent,
      {
        type: 'AgentStopped',
        data: {
          reason: { kind: 'feedbackRequired', toolCall: calls[0] as ToolCall },
          cause: 'feedbackRequired',
        },
      } as PendingEvent,
    ];
    spec()
      .given(waiting)
      .when({ kind: 'recordDecision', toolCallId: 'g1', feedback: { kind: 'approved' }, by: 'ana' })
      .then([
        {
          type: 'FeedbackReceived',
          data: { toolCallId: 'g1', feedback: { kind: 'approved' }, by: 'ana' },
        },
      ]);
    spec()
      .given(waiting)
      .when({ kind: 'recordDecision', toolCallId: 'zz', feedback: { kind: 'approved' } })
      .thenThrows('invalidFeedback', 'never made this call');
    spec()
      .given([
        ...waiting,
        { type: 'FeedbackReceived', data: { toolCallId: 'g1', feedback: { kind: 'refused' } } },
      ])
      .when({ kind: 'recordDecision', toolCallId: 'g1', feedback: { kind: 'approved' } })
      .thenThrows('invalidFeedback', 'already given');
  });

  it('partial matching names the path that differs', () => {
    expect(() =>
      spec()
        .given([])
        .when({ kind: 'addSummary', text: 'x' })
        .then([{ type: 'SummaryAdded', data: { text: 'y' } }]),
    ).toThrow(/\$\[0\]\.data\.text: expected "y", got "x"/);
  });
});

import { describe, expect, it } from 'vitest';
import { assistantMessageOf } from '../decider/assistantMessageOf.js';
import { errorStop } from '../decider/errorStop.js';
import { mayRebase } from '../decider/mayRebase.js';
import { startCursor } from '../decider/runCursor.js';
import { toolMessageOutput } from '../decider/toolMessageOutput.js';
import { AgentError } from '../errors/agentError.js';
import { FOREIGN_EVENT_TYPES, type PendingEvent } from '../events/agentEvent.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { DeciderSpec } from '../testing/deciderSpec.js';

// The rules that used to sit in the interpreter (issue 18), each as a pure decision.

const spec = (settings = {}) => DeciderSpec.for({ tools: { stop: {} }, ...settings });
const running: PendingEvent[] = [
  { type: 'RunStarted', data: { mode: 'query', input: 'go' } },
  { type: 'UserMessageQueued', data: { text: 'go' } },
  { type: 'UserMessageAdded', data: { text: 'go' } },
];

describe('the rules of the decider', () => {
  it('EVT-7 LOOP-4 the step writes first, and a stop request its write meets spares the model', () => {
    // Before the write: the step must write what it holds back.
    spec().given(running).whenNext({ phase: 'step', asked: false, write: true }).then({
      kind: 'write',
    });
    // The write brought in a request from another process: it lands, the model is not asked.
    spec()
      .given([...running, { type: 'StopRequested', data: { reason: 'enough', by: 'ana' } }])
      .whenNext({ phase: 'step', asked: false })
      .then({
        kind: 'stop',
        events: [
          {
            type: 'AgentStopped',
            data: {
              reason: { kind: 'other', text: 'enough' },
              cause: 'stoppedByCaller',
              by: 'ana',
            },
          },
        ],
      });
    // Without a request the written step asks the model.
    spec().given(running).whenNext({ phase: 'step', asked: false }).then({ kind: 'askModel' });
  });

  it('EVT-7 STOP-7 of a requested stop and a tool stop in one step, the one recorded first lands', () => {
    const requested: PendingEvent[] = [
      ...running,
      { type: 'StopRequested', data: { reason: 'from a hook', hook: 'beforeTool' } },
    ];
    const toolStop = {
      reason: { kind: 'agentFailed' as const },
      cause: 'toolReportedFailure' as const,
    };
    // The request is at revision 3; a tool stop recorded after it loses, one before it wins.
    spec()
      .given(requested)
      .whenNext({ phase: 'step', asked: false, stop: { ...toolStop, at: 4 } })
      .then({ kind: 'stop', stop: { reason: { kind: 'other' }, hook: 'beforeTool' } });
    spec()
      .given(requested)
      .whenNext({ phase: 'step', asked: false, stop: { ...toolStop, at: 2 } })
      .then({ kind: 'stop', stop: { reason: { kind: 'agentFailed' } } });
  });

  it('EVT-7 STOP-7 a stop on a pending agent is requested, then recorded at once; on a stopped one it writes nothing', () => {
    spec()
      .given([])
      .when({ kind: 'stop', text: 'not today', by: 'ana' })
      .then([
        { type: 'StopRequested', data: { reason: 'not today', by: 'ana' } },
        {
          type: 'AgentStopped',
          data: { reason: { kind: 'other', text: 'not today' }, cause: 'stoppedByCaller' },
        },
      ]);
    spec()
      .given([
        ...running,
        {
          type: 'AgentStopped',
          data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
        },
      ])
      .when({ kind: 'stop', text: 'again' })
      .then([]);
  });

  it('LOOP-2 beforeAll fires on the first run only, before its command is recorded', () => {
    const first = spec().given([]);
    first.whenNext(startCursor({ mode: 'query', input: 'hi' })).then({ kind: 'beforeAll' });
    first.whenNext({ ...startCursor({ mode: 'query', input: 'hi' }), hooked: true }).then({
      kind: 'beginRun',
      events: [
        { type: 'RunStarted', data: { mode: 'query', input: 'hi' } },
        { type: 'UserMessageQueued', data: { text: 'hi' } },
      ],
    });
    spec()
      .given([
        ...running,
        {
          type: 'AgentStopped',
          data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
        },
      ])
      .whenNext(startCursor({ mode: 'query', input: 'again' }))
      .then({ kind: 'beginRun', events: [{ type: 'RunStarted' }, { type: 'UserMessageQueued' }] });
  });

  it('LOOP-4 LOOP-6 an answer with neither text, a refusal nor tool calls adds no message', () => {
    expect(assistantMessageOf({ toolCalls: [] })).toBeUndefined();
    expect(assistantMessageOf({ message: '', toolCalls: [] })).toBeUndefined();
    expect(assistantMessageOf({ message: 'hi', toolCalls: [] })).toEqual({
      role: 'assistant',
      text: 'hi',
      toolCalls: [],
    });
    expect(assistantMessageOf({ refusal: 'no', toolCalls: [] })).toEqual({
      role: 'assistant',
      refusal: 'no',
      toolCalls: [],
    });
    const calls = [{ id: 'c1', name: 'stop' }];
    expect(assistantMessageOf({ message: '', toolCalls: calls })).toEqual({
      role: 'assistant',
      toolCalls: calls,
    });
  });

  it('HITL-2 TOOL-3 a feedback request enters no message; a failure enters as a fail output', () => {
    expect(
      toolMessageOutput({ ok: true, output: ToolOutput.feedbackRequired({ amount: 3 }) }),
    ).toBeUndefined();
    expect(toolMessageOutput({ ok: false, error: 'boom' })).toEqual(ToolOutput.fail('boom'));
    expect(toolMessageOutput({ ok: true, output: ToolOutput.text('x') })).toEqual(
      ToolOutput.text('x'),
    );
  });

  it('LOOP-8 LOOP-10 a failure ends the run with error; an abort with cause aborted', () => {
    expect(errorStop(new Error('boom'))).toEqual({
      reason: { kind: 'error', message: 'boom' },
      cause: 'error',
    });
    expect(errorStop(new AgentError('aborted', 'the run was aborted'))).toEqual({
      reason: { kind: 'error', message: 'the run was aborted' },
      cause: 'aborted',
    });
    expect(errorStop('a string').cause).toBe('error');
  });

  it('HITL-10 HITL-12 RES-3 a run folds in only what another process may write during it', () => {
    expect([...FOREIGN_EVENT_TYPES]).toEqual(['FeedbackReceived', 'StopRequested']);
    expect(mayRebase([{ type: 'FeedbackReceived' }, { type: 'StopRequested' }])).toBe(true);
    expect(mayRebase([{ type: 'FeedbackReceived' }, { type: 'RunStarted' }])).toBe(false);
    expect(mayRebase([{ type: 'ModelResponded' }])).toBe(false);
    expect(mayRebase([])).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { workEntry, workStatus } from '../decider/workStatus.js';
import type { PendingEvent } from '../events/agentEvent.js';
import { DeciderSpec } from '../testing/deciderSpec.js';

// The workers' rules on the decider alone (SPEC WRK-1, WRK-2, WRK-7).

const worker = { id: 'w1', host: 'h1', pid: 7 };
const requested: PendingEvent = {
  type: 'RunRequested',
  data: { agent: 'writer', input: 'draft it', by: 'ana' },
};
const waitingForApproval: PendingEvent[] = [
  requested,
  { type: 'RunStarted', data: { mode: 'run', input: 'draft it', worker } },
  { type: 'UserMessageQueued', data: { text: 'draft it' } },
  { type: 'UserMessageAdded', data: { text: 'draft it' } },
  {
    type: 'AssistantMessageAdded',
    data: { message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'deploy' }] } },
  },
  {
    type: 'ToolCallStarted',
    data: { toolCall: { id: 'c1', name: 'deploy' }, idempotencyKey: 'k' },
  },
  { type: 'FeedbackRequested', data: { toolCall: { id: 'c1', name: 'deploy' } } },
  {
    type: 'AgentStopped',
    data: {
      reason: { kind: 'feedbackRequired', toolCall: { id: 'c1', name: 'deploy' } },
      cause: 'feedbackRequired',
    },
  },
];
const approved: PendingEvent = {
  type: 'FeedbackReceived',
  data: { toolCallId: 'c1', feedback: { kind: 'approved' } },
};
const settings = { stopOnAssistant: true, runLeaseMs: 60_000 };

describe('the workers’ rules (SPEC WRK)', () => {
  it('WRK-1 a run request records the agent name, its input and who asked', () => {
    DeciderSpec.for()
      .given([])
      .when({ kind: 'requestRun', agent: 'writer', input: 'draft it', by: 'ana' })
      .then([{ type: 'RunRequested', data: { agent: 'writer', input: 'draft it', by: 'ana' } }]);
  });

  it('WRK-1 a request is refused for an input that is not a text, while one is pending, during a live run, and with nothing to run', () => {
    DeciderSpec.for()
      .given([])
      .when({ kind: 'requestRun', agent: 'writer', input: 7 })
      .thenThrows('invalidConfiguration', 'the input must be a text');
    DeciderSpec.for()
      .given([requested])
      .when({ kind: 'requestRun', agent: 'writer', input: 'more' })
      .thenThrows('alreadyRunning', 'already has a requested run');
    // Another process's run would not fold the request in: refused, live or crashed (a crashed
    // run is listed for the workers by its lapsed lease without a request).
    DeciderSpec.for()
      .given(waitingForApproval.slice(0, 4))
      .when({ kind: 'requestRun', agent: 'writer', input: 'more' })
      .thenThrows('alreadyRunning', 'has a run in progress');
    DeciderSpec.for()
      .given([])
      .when({ kind: 'requestRun', agent: 'writer' })
      .thenThrows('nothingToRun');
  });

  it('WRK-1 WRK-7 the first run of a requested stream takes the request’s input and names its worker', () => {
    DeciderSpec.for()
      .given([requested])
      .when({ kind: 'startRun', mode: 'run', worker })
      .then([
        { type: 'RunStarted', data: { mode: 'run', input: 'draft it', worker } },
        { type: 'UserMessageQueued', data: { text: 'draft it' } },
      ]);
  });

  it('WRK-5 WRK-8 a worker releases only the run it holds', () => {
    const held = DeciderSpec.for().given([...waitingForApproval.slice(0, 4)]);
    held
      .when({ kind: 'releaseRun', worker, reason: 'shutting down' })
      .then([{ type: 'RunReleased', data: { worker, reason: 'shutting down' } }]);
    held
      .when({ kind: 'releaseRun', worker: { ...worker, id: 'w2' } })
      .thenThrows('leaseLost', 'worker w2 cannot release the run, worker w1 took it');
  });

  it('WRK-2 a stream needs work when requested, when every waiting call holds a decision, or when released with work left; one that waits for a person is waiting', () => {
    const status = (events: PendingEvent[]) =>
      workStatus(DeciderSpec.for().given(events).state, settings);
    expect(status([])).toBe('idle');
    expect(status([requested])).toBe('requested');
    expect(status(waitingForApproval.slice(0, 4))).toBe('running');
    // A request that met a live run (its requester's clock said the run had crashed) waits.
    expect(status([...waitingForApproval.slice(1, 4), requested])).toBe('running');
    expect(status(waitingForApproval)).toBe('waiting');
    expect(status([...waitingForApproval, approved])).toBe('ready');
    const released: PendingEvent = { type: 'RunReleased', data: { worker } };
    expect(status([...waitingForApproval.slice(0, 4), released])).toBe('ready');
  });

  it('WRK-6 WRK-7 the index entry names the agent, and while running the worker and its lease', () => {
    const state = DeciderSpec.for().given(waitingForApproval.slice(0, 4)).state;
    expect(workEntry(state, settings)).toEqual({
      status: 'running',
      agent: 'writer',
      owner: 'w1',
      leaseMs: 60_000,
    });
    expect(workEntry(DeciderSpec.for().given(waitingForApproval).state, settings)).toEqual({
      status: 'waiting',
      agent: 'writer',
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { AgentContext } from '../api/agentContext.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { stopTool } from './stopTool.js';

// Every use fails the test: stopping needs nothing from the agent.
const untouchable: AgentContext = {
  streamId: 'stop-test',
  feedbackReceived: () => Promise.reject(new Error('unexpected feedbackReceived')),
  hasReceivedFeedback: () => Promise.reject(new Error('unexpected hasReceivedFeedback')),
  history: () => {
    throw new Error('unexpected history');
  },
  idempotencyKey: () => {
    throw new Error('unexpected idempotencyKey');
  },
};

describe('stopTool()', () => {
  it('STOP-1 is named stop and its schema takes no arguments', () => {
    const stop = stopTool();
    expect(stop.name).toBe('stop');
    expect(stop.spec()).toMatchObject({
      name: 'stop',
      parameters: { type: 'object', properties: {}, additionalProperties: false, required: [] },
    });
    expect(stop.spec().description).toMatch(/complete/);
  });

  it.each([undefined, '{}', '{"output":"x"}', 'ignored, not json'])(
    'STOP-1 STOP-5 stops without a payload whatever the args (%j)',
    async (args) => {
      const output = await stopTool().invoke(untouchable, {
        id: 's1',
        name: 'stop',
        ...(args === undefined ? {} : { args }),
      });
      expect(output).toEqual(ToolOutput.stop());
      expect(output).not.toHaveProperty('payload');
    },
  );

  it('STOP-1 is idempotent: it has no side effects to repeat', () => {
    expect(stopTool().idempotent).toBe(true);
  });
});

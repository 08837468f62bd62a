import { Agent, ToolOutput, type AgentBuilder, type StreamEvent } from '@agentlog/core';
import { describe, expect, it } from 'vitest';
import { replayStream } from './replayStream.js';
import { greet, recordGreeting } from './test/greetSession.js';

// Replay is a fold of recorded inputs: the tool's own result is served, the hooks run once.

const checked = (suffix: () => string) => (): AgentBuilder =>
  Agent.builder()
    .tools([greet])
    .afterTool((_agent, _call, result) =>
      result.ok && result.output.kind === 'text'
        ? { ok: true, output: ToolOutput.text(`${result.output.text} ${suffix()}`) }
        : undefined,
    )
    .onNewMessage((_agent, message) =>
      message.role === 'assistant' && message.text !== undefined
        ? { ...message, text: `[reviewed] ${message.text}` }
        : undefined,
    );

function record(): Promise<StreamEvent[]> {
  return recordGreeting(checked(() => '[checked]')(), 'hooks');
}

describe('replay with hooks', () => {
  it('RPL-5 the tool’s own result is recorded beside what hooks made of it', async () => {
    const events = await record();
    const completed = events.find((event) => event.type === 'ToolCallCompleted');
    expect(completed?.data).toEqual({
      toolCallId: 'g1',
      output: { kind: 'text', text: 'hi [checked]' },
      raw: { ok: true, output: { kind: 'text', text: 'hi' } },
    });
  });

  it('RPL-5 RPL-2 a session with afterTool and onNewMessage hooks replays cleanly with recorded and live tools', async () => {
    const events = await record();
    for (const tools of ['recorded', 'live'] as const) {
      const result = await replayStream(events, { agent: checked(() => '[checked]'), tools });
      expect(result.ok, `${tools}: ${result.ok ? '' : result.divergence.message}`).toBe(true);
      const output = result.events.find((event) => event.type === 'ToolCallCompleted');
      expect((output?.data as { output: { text: string } }).output.text).toBe('hi [checked]');
    }
  });

  it('RPL-5 a hook that is not deterministic is reported at the first differing event, naming the hooks', async () => {
    const events = await record();
    let count = 0;
    const result = await replayStream(events, {
      agent: checked(() => `[checked ${(count += 1)}]`),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.divergence.diff).toContain('$.data.output.text');
    expect(result.divergence.diff).toContain('afterTool or onNewMessage hooks');
    expect(result.divergence.index).toBe(
      events.findIndex((event) => event.type === 'ToolCallCompleted'),
    );
  });
});

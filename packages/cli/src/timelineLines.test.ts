import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonl } from '@agentlog/store/jsonl';
import { decodeEvent, type AgentEvent } from '@agentlog/core';
import { timelineMemory } from '@agentlog/core/read-models';
import { describeEvent } from './describeEvent.js';
import { createPainter } from './painter.js';
import { hiddenLine, timeline } from './timelineLines.js';

const sessions = resolve(import.meta.dirname, '../../../fixtures/sessions');
const paint = createPainter({ isTTY: false, env: {} });

/** The lines and hidden revisions of a writer that never forgets a call: the reference. */
function unforgetful(events: readonly AgentEvent[]): { lines: string[]; hidden: string[] } {
  const memory = timelineMemory();
  const lines: string[] = [];
  const hidden: string[] = [];
  events.forEach((event, index) => {
    const text = describeEvent(event, events[index + 1], memory, paint);
    if (text === undefined) hidden.push(`${event.type}#${event.metadata.revision}`);
    else lines.push(text);
  });
  return { lines, hidden };
}

describe('the timeline keeps the open calls, not every call (issue 21)', () => {
  it('forgetting answered calls changes no line of any recorded session', async () => {
    const files = readdirSync(sessions).filter((name) => name.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const events = (await readJsonl(join(sessions, file))).events.map(decodeEvent);
      const reference = unforgetful(events);
      const { lines, hidden } = timeline(events, paint);
      // Each line is `#<revision><padding><text>`; the text is what the reference describes.
      expect(
        lines.filter((line) => line.startsWith('#')).map((line) => line.replace(/^#\d+ +/, '')),
        file,
      ).toEqual(reference.lines.map((text) => text.split('\n')[0]));
      expect(
        [...hidden].flatMap(([type, revisions]) => revisions.map((r) => `${type}#${r}`)).sort(),
        file,
      ).toEqual([...reference.hidden].sort());
    }
  });

  it('a decision consumed after its call was answered still names the call', () => {
    const call = { id: 'c', name: 'echo', args: '{}' };
    const events = [
      { type: 'RunStarted', data: { mode: 'run' } },
      {
        type: 'AssistantMessageAdded',
        data: { message: { role: 'assistant', toolCalls: [call] } },
      },
      { type: 'ToolCallStarted', data: { toolCall: call, idempotencyKey: 's:c' } },
      { type: 'FeedbackReceived', data: { toolCallId: 'c', feedback: { kind: 'refused' } } },
      {
        type: 'ToolCallCompleted',
        data: { toolCallId: 'c', output: { kind: 'text', text: 'no' } },
      },
      { type: 'FeedbackConsumed', data: { toolCallId: 'c' } },
      { type: 'ToolCallCompleted', data: { toolCallId: 'c', output: { kind: 'text', text: 'x' } } },
    ].map((event, revision) => ({
      ...event,
      metadata: {
        eventId: `e${revision}`,
        at: '2026-01-01T00:00:00.000Z',
        revision,
        schemaVersion: 4,
      },
    })) as AgentEvent[];
    const { lines } = timeline(events, paint);
    expect(lines.slice(4, 6)).toEqual([
      '#4  ✗ echo refused: no',
      '#5  · decision on echo (c) read',
    ]);
    // The call is forgotten after both: a later (unchecked) answer no longer finds its name.
    expect(lines[6]).toBe('#6  ✓ (unknown tool): x');
  });

  it('the hidden line groups revisions by why, in order', () => {
    const hidden = new Map([
      ['UserMessageQueued', [2]],
      ['AssistantMessageAdded', [5, 15]],
    ]);
    expect(hiddenLine(hidden)).toBe(
      "hidden: #2 a queued user text that entered the history at once; #5, #15 the assistant message, equal to the model's answer",
    );
    expect(hiddenLine(new Map())).toBeUndefined();
  });
});

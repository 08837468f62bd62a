import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createInMemoryEventStore, type StreamEvent } from '@agentlog/core';
import { counterIds, fixedClock, scriptedModel, textResponse } from '@agentlog/core/testing';
import { describe, expect, it } from 'vitest';
import { agentFor } from '../../../../fixtures/agents.js';
import { expectReplay, recordSession, replayMatchers } from './index.js';

expect.extend(replayMatchers);

const sessions = join(import.meta.dirname, '../../../../fixtures/sessions');
const file = join(sessions, 'RPL-5-hooks-replayed-once.jsonl');
const builder = () => {
  const built = agentFor(file, []);
  if (built === undefined) throw new Error('no agent for the RPL-5 session');
  return built;
};

describe('@agentlog/replay/vitest', () => {
  it('RPL-2 expectReplay and toReplayCleanly pass on a session that replays as recorded', async () => {
    await expectReplay(file, builder);
    await expect(file).toReplayCleanly(builder);
    await expect(file).toReplayCleanly(builder, { tools: 'live' });
  });

  it('RPL-2 a divergence fails with its diff', async () => {
    const events = JSON.parse(
      `[${(await readFile(file, 'utf8')).trim().split('\n').join(',')}]`,
    ) as StreamEvent[];
    // The recorded answer is edited: the replayed message made of it differs from the recorded one.
    const first = events.findIndex((event) => event.type === 'ModelResponded');
    const tampered = events.map((event, index) => {
      if (index !== first) return event;
      const data = event.data as { response: Record<string, unknown> };
      return { ...event, data: { ...data, response: { ...data.response, message: 'Edited.' } } };
    });
    await expect(expectReplay(tampered, builder)).rejects.toThrow(/diverges: .*\n[\s\S]*\$\.data/);
    await expect(expect(tampered).toReplayCleanly(builder)).rejects.toThrow(/the session diverges/);
  });

  it('expectReplay on a file that is not a session names the file and the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-vitest-'));
    const broken = join(dir, 'broken.jsonl');
    await writeFile(broken, '{"type":"RunStarted"}\nnot json\n{}\n');
    const error = await expectReplay(broken, builder).catch((caught: unknown) => caught as Error);
    expect(error?.message).toContain(`${broken} is not a session agentlog can replay`);
    expect(error?.message).toContain('line 1');
  });

  it('expectReplay on a session whose last line is cut short names the file and the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-vitest-'));
    const torn = join(dir, 'torn.jsonl');
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const last = lines.at(-1) ?? '';
    await writeFile(torn, [...lines.slice(0, -1), last.slice(0, last.length / 2)].join('\n'));
    const error = await expectReplay(torn, builder).catch((caught: unknown) => caught as Error);
    expect(error?.message).toContain(`${torn} is not a session agentlog can replay`);
    expect(error?.message).toContain(`line ${lines.length}`);
  });

  it('RPL-4 recordSession writes a run as a fixture with its provenance', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-vitest-'));
    const store = createInMemoryEventStore();
    const agent = await Agent.builder()
      .llm(scriptedModel([textResponse('hi')]))
      .store(store)
      .streamId('recorded')
      .clock(fixedClock())
      .ids(counterIds())
      .build();
    await agent.query('hello');
    const target = join(dir, 'sessions/hello.jsonl');
    await recordSession(agent, target, {
      store,
      provenance: { kind: 'scripted', source: 'a test, by hand' },
    });
    const lines = (await readFile(target, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toContain(
      'ModelResponded',
    );
    const provenance = JSON.parse(await readFile(`${target}.provenance.json`, 'utf8')) as Record<
      string,
      unknown
    >;
    expect(provenance).toMatchObject({
      kind: 'scripted',
      streamId: 'recorded',
      events: lines.length,
    });
    await expectReplay(target, () => Agent.builder());
  });
});

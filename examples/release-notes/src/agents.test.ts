import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { replayStream } from '@agentlog/replay';
import { createSqliteEventStore } from '@agentlog/store';
import { describe, expect, it } from 'vitest';
import { agentFor } from './agents.js';
import { runCli } from './cli.js';
import { RECORDED_FEEDBACK } from './offlineModel.js';

describe('the --agent module', () => {
  it('replays the runs of npm start as recorded: approve, revise then approve, reject, and a run the offline drafter finished', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'agentlog-agents-'));
    for (const answers of [
      'y\n',
      `n\n${RECORDED_FEEDBACK}\ny\n`,
      'n\n\n',
      'n\nAdd a haiku.\ny\n',
    ]) {
      const io = { input: Readable.from([answers]), write: () => {}, env: {}, cwd, isTTY: false };
      expect(await runCli(['--by', 'ana', '--new'], io)).toBe(0);
    }
    const store = createSqliteEventStore({ path: join(cwd, '.agentlog/agentlog.db') });
    const streams = await store.listStreams();
    expect(streams).toHaveLength(4);
    for (const streamId of streams) {
      const events = await store.readStream(streamId);
      const builder = agentFor(streamId, events);
      expect(builder).toBeDefined();
      const result = await replayStream(events, { agent: () => builder!, streamId });
      expect(result.ok, streamId).toBe(true);
    }
    store.close();
    expect(agentFor('some-other-stream', [])).toBeUndefined();
  });
});

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayMatchers } from '@agentlog/replay/vitest';
import { describe, expect, it } from 'vitest';
import { releaseNotesBuilder } from './releaseNotesAgent.js';

expect.extend(replayMatchers);

// How a user replays a recorded session in their own suite: the showcase's recordings, with the
// agent as the showcase builds it (SPEC RPL-2).
const recording = (name: string) =>
  fileURLToPath(new URL(`../fixtures/recordings/${name}.jsonl`, import.meta.url));
const agent = () => releaseNotesBuilder(join(tmpdir(), 'agentlog-release-notes-replay-test'));

describe('the showcase recordings', () => {
  it('RPL-2 the approve and the revise-then-approve recordings replay cleanly', async () => {
    await expect(recording('approve')).toReplayCleanly(agent);
    await expect(recording('revise')).toReplayCleanly(agent, { tools: 'recorded' });
  });
});

// Writes fixtures/recordings/{approve,revise}.jsonl: the showcase agent run on the model answers
// scripted by hand in scriptedSession.ts (not recorded from a model), against the sample history.
// Run it after changing the prompt, the tools or the task: npx tsx examples/release-notes/src/recordSessions.ts
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryEventStore, type CompletionResponse } from '@agentlog/core';
import { counterIds, fixedClock, scriptedModel } from '@agentlog/core/testing';
import { writeJsonl } from '@agentlog/store';
import { rm } from 'node:fs/promises';
import { draftReleaseNotes } from './draftReleaseNotes.js';
import { sampleHistory, taskFor } from './gitLog.js';
import { RECORDED_FEEDBACK, RECORDINGS } from './offlineModel.js';
import { buildReleaseNotesAgent } from './releaseNotesAgent.js';
import { Verdict, scriptedReviewer } from './reviewer.js';
import { scriptedApproveSession, scriptedReleaseSession } from './scriptedSession.js';

async function record(path: string, answers: CompletionResponse[], verdicts: Verdict[]) {
  const store = createInMemoryEventStore();
  const streamId = 'release-notes-recorded';
  const agent = await buildReleaseNotesAgent({
    model: scriptedModel(answers),
    store,
    streamId,
    outputDir: await mkdtemp(join(tmpdir(), 'agentlog-record-')),
    configure: (builder) => builder.clock(fixedClock()).ids(counterIds()),
  });
  await draftReleaseNotes(
    agent,
    taskFor(await sampleHistory()),
    scriptedReviewer('maintainer', verdicts),
  );
  await rm(path, { force: true });
  await writeJsonl(path, await store.readStream(streamId));
  process.stdout.write(`wrote ${path}\n`);
}

await record(RECORDINGS.approve, scriptedApproveSession(), [Verdict.approve()]);
await record(RECORDINGS.revise, scriptedReleaseSession(), [
  Verdict.revise(RECORDED_FEEDBACK),
  Verdict.approve(),
]);

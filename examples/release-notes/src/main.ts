import { join } from 'node:path';
import { createInMemoryEventStore } from '@agentlog/core';
import { scriptedModel } from '@agentlog/core/testing';
import { draftReleaseNotes } from './draftReleaseNotes.js';
import { buildReleaseNotesAgent } from './releaseNotesAgent.js';
import { Verdict, scriptedReviewer } from './reviewer.js';
import { scriptedReleaseSession } from './scriptedSession.js';
import { withTimeline } from './timeline.js';
import { RELEASE_NOTES_FILE } from './writeChangelog.js';

// The showcase: an agent drafts release notes, a reviewer asks for one revision and then
// approves the write, and the agent hands over structured notes. The model's answers are
// scripted (no API key needed); every step lands in the event stream, printed at the end.

const print = (line: string) => process.stdout.write(`${line}\n`);
const outputDir = join(process.cwd(), '.agentlog', 'release-notes');
const store = createInMemoryEventStore();
const streamId = `release-0.34-${Date.now()}`;

const agent = await buildReleaseNotesAgent({
  model: scriptedModel(scriptedReleaseSession()),
  store,
  streamId,
  outputDir,
  configure: (builder) => withTimeline(builder, print),
});
const reviewer = scriptedReviewer('maintainer', [
  Verdict.revise('Mention the Perl support and the breaking change.'),
  Verdict.approve(),
]);

print(
  'agentlog showcase: release notes with a human in the loop (scripted model answers, no API key)\n',
);
const outcome = await draftReleaseNotes(agent, 'Draft the release notes for 0.34.0.', reviewer);

if (outcome.kind === 'written') {
  print(`\n✔ ${join(outputDir, RELEASE_NOTES_FILE)}`);
  if (outcome.notes) {
    print(`\n${outcome.notes.version} — ${outcome.notes.summary}`);
    for (const [label, items] of [
      ['highlights', outcome.notes.highlights],
      ['breaking changes', outcome.notes.breaking_changes],
      ['fixes', outcome.notes.fixes],
    ] as const) {
      print(`  ${label} (${items.length})`);
      for (const item of items) print(`    • ${item.title} [${item.references.join(', ')}]`);
    }
  }
} else {
  print('\nThe reviewer rejected the notes.');
}

const events = await store.readStream(streamId);
print(`\nThe stream ${streamId} holds ${events.length} events:`);
for (const event of events) {
  const by =
    event.type === 'FeedbackReceived'
      ? ` (by ${(event.data as { by?: string }).by ?? 'unknown'})`
      : '';
  print(`  ${String(event.metadata.revision).padStart(3)} ${event.type}${by}`);
}

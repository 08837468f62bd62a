import { join } from 'node:path';
import { scriptedModel } from '@agentlog/core/testing';
import { createSqliteEventStore, defaultSqlitePath } from '@agentlog/store';
import { draftReleaseNotes } from './draftReleaseNotes.js';
import { buildReleaseNotesAgent } from './releaseNotesAgent.js';
import { Verdict, scriptedReviewer } from './reviewer.js';
import { scriptedReleaseSession } from './scriptedSession.js';
import { withTimeline } from './timeline.js';
import { RELEASE_NOTES_FILE } from './writeChangelog.js';

// The showcase: an agent drafts release notes, a reviewer asks for one revision and then
// approves the write, and the agent hands over structured notes. The model's answers are
// scripted (no API key needed); every step lands in the event stream, in the embedded SQLite
// store at .agentlog/agentlog.db, where `npx agentlog inspect <stream>` reads it again.

const print = (line: string) => process.stdout.write(`${line}\n`);
const outputDir = join(process.cwd(), '.agentlog', 'release-notes');
const store = createSqliteEventStore();
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
const decisions = events.filter((event) => event.type === 'FeedbackReceived').length;
print(
  `\nThe run left ${events.length} events (${decisions} decisions) in stream ${streamId} of ${defaultSqlitePath}.`,
);
print(`See every step with: npx agentlog inspect ${streamId}`);
store.close();

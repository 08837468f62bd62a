import { readableTime } from './marks.js';
import { createHash } from 'node:crypto';
import type { FoldedStream } from '@agentlog/core/read-models';
import { auditModel } from './auditModel.js';
import { markup } from './html.js';
import { PayloadShelf } from './payloads.js';
import {
  conversationSection,
  decisionsSection,
  outcomeSection,
  timelineSection,
  toolCallsSection,
  warningsAndStopsSection,
} from './sections.js';

/**
 * The page's only style sheet; the CSP allows exactly this text (by its hash) and nothing else.
 * It has no character the `markup` template escapes (no quotes, `<`, `>` or `&`), so it goes into
 * `<style>` unchanged: no unescaped way into the page is needed.
 */
export const reportCss = `
body { font: 14px/1.4 DejaVu Sans, system-ui, sans-serif; margin: 1rem auto; max-width: 76rem; color: #1d232a; padding: 0 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 .15rem; } h2 { font-size: 1.1rem; border-bottom: 1px solid #d0d7de; padding-bottom: .15rem; margin: 1.25rem 0 .5rem; }
h3 { font-size: 1rem; margin: .75rem 0 .25rem; }
header { margin-bottom: .5rem; } .meta, time, .rev { color: #57606a; } .rev, code, pre { font-family: DejaVu Sans Mono, ui-monospace, monospace; }
.outcome { padding: .4rem .75rem; background: #f6f8fa; border-left: 4px solid #8250df; } .outcome p { margin: .2rem 0; } .stop { font-size: 1.05rem; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: .4rem .6rem; margin: .25rem 0; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d0d7de; padding: .25rem .45rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; } td.by { font-weight: bold; } td.when { white-space: nowrap; } td.note { white-space: pre-wrap; }
summary { cursor: pointer; } details pre { margin-left: 1rem; }
.status { font-weight: bold; white-space: nowrap; } .approved, .completed { color: #1a7f37; } .refused, .failed { color: #cf222e; }
.waiting, .ambiguous, .warn { color: #9a6700; } .started, .open { color: #57606a; }
.pause { display: inline-block; width: .6em; height: .75em; border-left: .2em solid currentColor; border-right: .2em solid currentColor; box-sizing: border-box; vertical-align: -.05em; }
.tool-call { border: 1px solid #d0d7de; border-radius: 6px; padding: .25rem .75rem .5rem; margin: .5rem 0; }
.draft .field { font-weight: bold; margin-top: .35rem; } pre.text { background: #fff; border: 1px solid #d0d7de; }
.diff span { display: block; } .diff .removed, span.removed { background: #ffebe9; color: #82071e; } .diff .added, span.added { background: #dafbe1; color: #116329; }
.revision { border-left: 3px solid #0969da; padding-left: .5rem; }
.events { list-style: none; padding-left: .5rem; margin: .25rem 0; } .events li { font-family: DejaVu Sans Mono, ui-monospace, monospace; font-size: 13px; }
.events .line { white-space: pre-wrap; } .events .run { font-weight: bold; } .events .call { color: #0969da; } .events .stopped { color: #8250df; }
.steps { list-style: none; padding: 0; } .totals { font-size: 1.05rem; }
.messages { list-style: none; padding: 0; } .msg { margin: .5rem 0; padding: .25rem .5rem; border-left: 3px solid #d0d7de; }
.msg.user { border-color: #0969da; } .msg.assistant { border-color: #8250df; } .msg.tool { border-color: #1a7f37; }
`;

const styleHash = createHash('sha256').update(reportCss).digest('base64');

/** The page's Content-Security-Policy: nothing may load, no script may run, only its own style. */
export const reportCsp = `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'`;

const style = markup`<style>${reportCss}</style>`;

/**
 * The audit page of a stream: the outcome and every decision at the top, then each tool call with
 * its honest status, drafts as text and revisions as diffs, the timeline per model step with
 * durations and tokens, the conversation, warnings and stops. Self-contained (no script, nothing
 * loaded); every text from the stream goes through the escaping `markup` template; each payload is
 * shown once.
 */
export function renderReport(loaded: FoldedStream): string {
  const { streamId, source, events, state } = loaded;
  const model = auditModel(loaded);
  const shelf = new PayloadShelf();
  const first = readableTime(events[0]?.metadata.at ?? '');
  const last = readableTime(events.at(-1)?.metadata.at ?? '');
  // Built in page order, so the payload shelf shows each payload in full where it first appears.
  const outcome = outcomeSection(state, events, shelf);
  const decisions = decisionsSection(model, shelf);
  const calls = toolCallsSection(model, shelf);
  const page = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportCsp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentlog report: ${streamId}</title>
${style}
</head>
<body>
<header>
<h1>Stream ${streamId}</h1>
<p class="meta">${source} · ${events.length} events · ${first} – ${last} · ${state.runs} run(s) · ${model.decisions.length} decision(s) · ${model.calls.length} tool call(s)</p>
</header>
<main>
${outcome}
${decisions}
${calls}
${timelineSection(model)}
${conversationSection(state.history)}
${warningsAndStopsSection(events)}
</main>
<footer class="meta"><p>Generated by agentlog report from the stream's events.</p></footer>
</body>
</html>
`;
  return page.toString();
}

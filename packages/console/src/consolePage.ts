import { markup, type HtmlValue, type SafeHtml } from './report/html.js';
import { reportCss } from './report/renderReport.js';

/**
 * The console's Content-Security-Policy, on every response: nothing loads but the console's own
 * style sheet and script file (served from routes, never inline), forms post only to the console,
 * no page may frame it. `connect-src 'self'` lets the run page's script read the event stream.
 */
export const consoleCsp =
  "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The console's style sheet, served at `/console.css`: the report's, and the console's forms. */
export const consoleCss = `${reportCss}
nav { display: flex; gap: 1rem; align-items: center; border-bottom: 1px solid #d0d7de; padding-bottom: .4rem; margin-bottom: .75rem; }
nav .who { margin-left: auto; color: #57606a; } nav form { display: inline; }
form.decision { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
form.decision label { display: block; margin: .3rem 0 .1rem; } textarea, input[type=text], input[type=password] { width: 100%; box-sizing: border-box; font: inherit; }
button { font: inherit; padding: .2rem .8rem; cursor: pointer; }
.notice { padding: .4rem .75rem; border-left: 4px solid #cf222e; background: #ffebe9; } .done { border-color: #1a7f37; background: #dafbe1; }
.filters a { margin-right: .6rem; } .filters a.current { font-weight: bold; }
`;

/** The one script file of the console, at `/console.js`: the run page's live event lines. */
export const consoleJs = `'use strict';
(function () {
  var list = document.getElementById('live');
  if (!list || !window.EventSource) return;
  var source = new EventSource(list.getAttribute('data-events'));
  source.onmessage = function (message) {
    var event = JSON.parse(message.data);
    var item = document.createElement('li');
    // textContent, never HTML: the line is shown as text, whatever the event holds.
    item.textContent = '#' + event.metadata.revision + ' ' + event.metadata.at + ' ' + event.type;
    list.appendChild(item);
  };
})();
`;

/** What every page shows: its title, the signed-in reviewer and the CSRF token of their forms. */
export interface PageFrame {
  readonly title: string;
  readonly reviewer?: string;
  readonly csrf?: string;
}

/**
 * A whole console page around `body`: the style sheet and script are files from the console's
 * routes (no inline script or style); every value in the page went through `markup`, which escapes
 * it and shows its control, bidi and zero-width characters (SPEC REV-1).
 */
export function consolePage(frame: PageFrame, body: HtmlValue): string {
  const nav =
    frame.reviewer === undefined
      ? null
      : markup`<nav><a href="/">Inbox</a> <a href="/runs">Runs</a>
<span class="who">signed in as <strong>${frame.reviewer}</strong></span>
<form method="post" action="/logout">${csrfField(frame.csrf)}<button type="submit">Sign out</button></form></nav>`;
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentlog console: ${frame.title}</title>
<link rel="stylesheet" href="/console.css">
<script src="/console.js" defer></script>
</head>
<body>
${nav}
<main>
${body}
</main>
</body>
</html>
`.toString();
}

/** The hidden CSRF field every form of a signed-in page carries. */
export function csrfField(csrf: string | undefined): SafeHtml {
  return markup`<input type="hidden" name="csrf" value="${csrf ?? ''}">`;
}

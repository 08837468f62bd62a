import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Agent,
  approvalRequired,
  tool,
  ToolFeedback,
  type CompletionResponse,
} from '@agentlog/core';
import { fixedClock, scriptedModel, textResponse } from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';
import { z } from 'zod';
import { runCliIn } from './test/runCliIn.js';
import { textOf } from './test/textOf.js';

const session = resolve(
  import.meta.dirname,
  '../../../fixtures/sessions/HITL-9-refund-with-payload.jsonl',
);
const chromium = '/usr/bin/chromium';
/** Where the Chromium test leaves its screenshots: `$AGENTLOG_ARTIFACTS`, else `artifacts/`. */
const artifacts = resolve(
  process.env['AGENTLOG_ARTIFACTS'] ?? resolve(import.meta.dirname, '../../../artifacts'),
);
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

const hostile = `"><img src=x onerror=alert(1)><script>alert('x')</script>`;
const draft = (extra: string) =>
  `# Release 1.0 ${hostile}\n\n- faster fold\n- new CLI report\n${extra}`;
const answer = (id: string, args: object, tokens: number): CompletionResponse => ({
  toolCalls: [{ id, name: 'write_changelog', args: JSON.stringify(args) }],
  model: 'gpt-test-1',
  usage: { promptTokens: tokens, completionTokens: 20, totalTokens: tokens + 20 },
});

/**
 * A stream full of hostile text (in the user's message, tool arguments, tool outputs, decision
 * authors and notes, the stream id): a Markdown draft refused, its revision approved.
 */
async function hostileStream(db: string): Promise<void> {
  const store = createSqliteEventStore({ path: db });
  const writeChangelog = tool({
    name: 'write_changelog',
    description: 'Writes the changelog.',
    parameters: z.object({ text: z.string(), title: z.string() }),
    execute: ({ title }) => `<img src=x onerror=alert(1)>written ${title}`,
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        answer('w1', { text: draft('- **breaking**: drop Node 18'), title: '</pre><script>' }, 900),
        answer('w2', { text: draft('\nNo breaking change.'), title: '</pre><script>' }, 1100),
        textResponse('<b>done</b>'),
      ]),
    )
    .tools([approvalRequired(writeChangelog)])
    .store(store)
    .clock(fixedClock('2026-12-01T10:00:00.000Z', 1500))
    .streamId('esc<ape>')
    .build();
  await agent.query('<script>alert("hi")</script>');
  const call = { name: 'write_changelog' };
  await agent.context().feedbackReceived({ ...call, id: 'w1' }, ToolFeedback.refused(), {
    by: '<ana & bo>',
    note: `no breaking change ${hostile}`,
  });
  await agent.run();
  await agent.context().feedbackReceived({ ...call, id: 'w2' }, ToolFeedback.approved(), {
    by: 'lead"><img src=x onerror=alert(2)>',
    note: '"quoted" & <em>',
  });
  await agent.run();
  store.close();
}

describe('agentlog report', () => {
  it('writes a self-contained HTML page: outcome, decisions, tool calls, timeline, conversation', async () => {
    const result = await cli(['report', session, '--html', 'out/hitl-9.html']);
    expect(result).toEqual({
      code: 0,
      stdout: `wrote out/hitl-9.html (HITL-9-refund-with-payload, 16 events)\n`,
      stderr: '',
    });
    const html = readFileSync(join(dir, 'out/hitl-9.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|@import|url\(/i);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;;/,
    );
    const text = textOf(html);
    expect(text).toContain('Stream HITL-9-refund-with-payload');
    expect(text).toContain('Stopped: done: the model answered');
    expect(text).toContain('Refunded 2500 cents for order A-17');
    expect(text).toMatch(
      /lead 2026-11-30 09:00:08 UTC #8 issue_refund r1 amount_cents: 10000, order_id: "A-17" .* ✓ approved/,
    );
    expect(text).toContain('"amount_cents": 10000');
    expect(text).toContain('user Refund order A-17');
    // The decisions come right after the outcome, before everything else.
    expect(html.indexOf('id="decisions"')).toBeLessThan(html.indexOf('id="tool-calls"'));
    expect(html.indexOf('id="outcome"')).toBeLessThan(html.indexOf('id="decisions"'));
  });

  it('escapes every text taken from the stream', async () => {
    const db = join(dir, 'escape.db');
    await hostileStream(db);
    expect((await cli(['report', 'esc<ape>', '--store', db, '--html', 'escape.html'])).code).toBe(
      0,
    );
    const html = readFileSync(join(dir, 'escape.html'), 'utf8');
    expect(html).not.toMatch(/<script|<img|<em>|<b>done<\/b>|<\/pre><script/i);
    expect(html).not.toMatch(/"><img/);
    const text = textOf(html);
    expect(text).toContain('<script>alert("hi")</script>');
    expect(text).toContain('<ana & bo>');
    expect(text).toContain(`no breaking change ${hostile}`);
    expect(text).toContain('lead"><img src=x onerror=alert(2)>');
    expect(text).toContain('<img src=x onerror=alert(1)>written </pre><script>');
    expect(text).toContain(`# Release 1.0 ${hostile}`);
  });

  it('renders in headless Chromium: styled, decisions in the first viewport, no hostile element', async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const db = join(dir, 'chromium.db');
    await hostileStream(db);
    const report = join(dir, 'chromium.html');
    expect((await cli(['report', 'esc<ape>', '--store', db, '--html', report])).code).toBe(0);
    mkdirSync(artifacts, { recursive: true });
    const page = await inChromium(pathToFileURL(report).href, {
      width: 1280,
      height: 800,
      screenshot: join(artifacts, 'report.png'),
      fullPage: join(artifacts, 'report-full.png'),
    });
    // The inline style sheet applied: the CSP hash matches it.
    expect(page.bodyMaxWidth).toBe('1216px');
    // The decisions table is entirely in the first 1280×800 viewport.
    expect(page.decisions.top).toBeGreaterThan(0);
    expect(page.decisions.bottom).toBeLessThanOrEqual(800);
    expect(page.decisionRows).toBe(2);
    // Nothing from the stream became an element or an event handler.
    expect(page.hostileElements).toBe(0);
    expect(page.handlerAttributes).toBe(0);
    expect(page.text).toContain('Stream esc<ape>');
    expect(page.text).toContain('<script>alert("hi")</script>');
    expect(page.text).toContain('Totals: 3 step(s)');
    expect(existsSync(join(artifacts, 'report.png'))).toBe(true);
  }, 90_000);

  it('renders the HITL-9 fixture in headless Chromium with the decision first', async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const report = join(dir, 'hitl-9-chromium.html');
    expect((await cli(['report', session, '--html', report])).code).toBe(0);
    const page = await inChromium(pathToFileURL(report).href, { width: 1280, height: 800 });
    expect(page.decisions.bottom).toBeLessThanOrEqual(800);
    expect(page.text).toContain('Stopped: done: the model answered');
    expect(page.text).toContain('Refunded 2500 cents for order A-17');
  }, 90_000);
});

interface PageFacts {
  readonly bodyMaxWidth: string;
  readonly decisions: { readonly top: number; readonly bottom: number };
  readonly decisionRows: number;
  readonly hostileElements: number;
  readonly handlerAttributes: number;
  readonly text: string;
}

/** What the test reads in the loaded page (run through DevTools, which the page's CSP does not bind). */
const probe = `JSON.stringify({
  bodyMaxWidth: getComputedStyle(document.body).maxWidth,
  decisions: (() => { const box = document.querySelector('#decisions table').getBoundingClientRect(); return { top: box.top, bottom: box.bottom }; })(),
  decisionRows: document.querySelectorAll('#decisions tbody tr').length,
  hostileElements: document.querySelectorAll('script, img, iframe, object, embed, link, em').length,
  handlerAttributes: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
  text: document.body.innerText.replace(/\\s+/g, ' '),
})`;

/**
 * Opens `url` in headless Chromium at `width`×`height` and reads {@link probe} through the
 * DevTools protocol over a pipe (`--remote-debugging-pipe`: no port, no WebSocket client);
 * optionally saves a screenshot of the viewport and of the whole page.
 */
async function inChromium(
  url: string,
  view: { width: number; height: number; screenshot?: string; fullPage?: string },
): Promise<PageFacts> {
  const profile = mkdtempSync(join(tmpdir(), 'agentlog-chromium-'));
  const child = spawn(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
      `--window-size=${view.width},${view.height}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    // Its own process group, so the test can end Chromium's helper processes with it.
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
  );
  const toBrowser = child.stdio[3] as NodeJS.WritableStream;
  const fromBrowser = child.stdio[4] as NodeJS.ReadableStream;
  let buffered = '';
  let lastId = 0;
  const replies = new Map<number, (message: CdpMessage) => void>();
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as CdpMessage;
      buffered = buffered.slice(end + 1);
      // Replies only; the protocol's events are not needed.
      if (message.id !== undefined) replies.get(message.id)?.(message);
    }
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((done, fail) => {
      const id = ++lastId;
      replies.set(id, (message) => {
        replies.delete(id);
        if (message.error !== undefined) fail(new Error(`${method}: ${message.error.message}`));
        else done(message.result ?? {});
      });
      toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  try {
    const { targetInfos } = (await send('Target.getTargets')) as {
      targetInfos: Array<{ targetId: string; type: string }>;
    };
    const target = targetInfos.find((info) => info.type === 'page');
    if (target === undefined) throw new Error('Chromium opened no page');
    const { sessionId } = (await send('Target.attachToTarget', {
      targetId: target.targetId,
      flatten: true,
    })) as { sessionId: string };
    await send(
      'Emulation.setDeviceMetricsOverride',
      { width: view.width, height: view.height, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    const evaluate = async (expression: string) =>
      (
        (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as {
          result: { value: string };
        }
      ).result.value;
    await send('Page.navigate', { url }, sessionId);
    // Wait until the report itself has loaded (a load event may still be about:blank's).
    const ready = `String(location.href === ${JSON.stringify(url)} && document.readyState === 'complete')`;
    for (let tries = 0; (await evaluate(ready)) !== 'true'; tries++) {
      if (tries > 200) throw new Error(`Chromium did not load ${url}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    const facts = JSON.parse(await evaluate(probe)) as PageFacts;
    if (view.screenshot !== undefined) {
      const shot = (await send('Page.captureScreenshot', { format: 'png' }, sessionId)) as {
        data: string;
      };
      writeFileSync(view.screenshot, Buffer.from(shot.data, 'base64'));
    }
    if (view.fullPage !== undefined) {
      const height = Number(await evaluate('String(document.documentElement.scrollHeight)'));
      const shot = (await send(
        'Page.captureScreenshot',
        {
          format: 'png',
          captureBeyondViewport: true,
          clip: { x: 0, y: 0, width: view.width, height, scale: 1 },
        },
        sessionId,
      )) as { data: string };
      writeFileSync(view.fullPage, Buffer.from(shot.data, 'base64'));
    }
    await Promise.race([
      send('Browser.close').catch(() => undefined),
      new Promise((done) => setTimeout(done, 3000)),
    ]);
    return facts;
  } finally {
    try {
      // The group of the Chromium this test started (pid = pgid): the browser and its helpers.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch {
      // A temporary folder; a helper still writing to it must not fail the test.
    }
  }
}

interface CdpMessage {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
}

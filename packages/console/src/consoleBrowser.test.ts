import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  createWorker,
  requestRun,
  type EventStore,
} from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { reviewersOf } from './reviewers.js';
import { startConsole, type RunningConsole } from './startConsole.js';
import { deployTool } from '../../replay/src/test/deployTool.js';

const chromium = '/usr/bin/chromium';
const TOKEN = 'ana-token-0123456789abcdef';

/** Where the screenshots go: `$AGENTLOG_ARTIFACTS`, else `artifacts/` (git-ignored). */
const artifacts = resolve(
  process.env['AGENTLOG_ARTIFACTS'] ?? resolve(import.meta.dirname, '../../../artifacts'),
);
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** Headless Chromium, as the Debian package installs it. */
async function launch(): Promise<Browser> {
  const { chromium: browserType } = await import('playwright-core');
  return browserType.launch({
    executablePath: chromium,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Signs `page` in at `url` with `token`; it lands on the inbox. */
async function signIn(page: Page, url: string, token = TOKEN): Promise<void> {
  await page.goto(`${url}/login`);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
}

/**
 * The serious and critical violations axe-core finds on `page`. The console's CSP allows no inline
 * script, so axe is not added as a script tag: `page.evaluate` runs its source through the
 * DevTools protocol, which the page's CSP does not govern, and the page itself is left as served.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const checked = await page.evaluate(async () => {
    // In the page, where `globalThis` is the window (this file has no DOM types).
    const browser = globalThis as unknown as {
      axe: { run: (context: unknown) => Promise<AxeResults> };
      document: unknown;
    };
    const results = await browser.axe.run(browser.document);
    return { violations: results.violations, passes: results.passes.length };
  });
  // axe ran its rules: a page where nothing was checked would prove nothing.
  expect(checked.passes).toBeGreaterThan(0);
  return checked.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact ?? '?'} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

interface AxeResults {
  readonly passes: readonly unknown[];
  readonly violations: readonly {
    readonly id: string;
    readonly impact?: string | null;
    readonly nodes: readonly { readonly target: readonly string[] }[];
  }[];
}

/** Saves a screenshot of `page` as `artifacts/<name>.png`. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  expect(existsSync(join(artifacts, `${name}.png`))).toBe(true);
}

/** Collects the errors of `page`'s console and its uncaught exceptions into `problems`. */
function watch(page: Page, problems: string[]): void {
  page.setDefaultTimeout(30_000);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
}

const decisionsOf = async (store: EventStore, streamId: string) =>
  (await store.readStream(streamId))
    .filter((event) => event.type === 'FeedbackReceived')
    .map((event) => event.data);

const running: RunningConsole[] = [];

/** The console on `store`, with ana as its reviewer; closed after each test. */
async function consoleOn(store: EventStore): Promise<RunningConsole> {
  const started = await startConsole({
    store,
    reviewers: reviewersOf([{ name: 'ana', token: TOKEN }], 'users.json'),
    port: 0,
  });
  running.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((console) => console.close()));
});

describe('agentlog serve in headless Chromium', () => {
  it('REV-3 REV-1: sign in, see the call live on its run page, approve it from the decide page, and the inbox is empty', async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const store = createInMemoryEventStore();
    const deploy = deployTool();
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([
            { name: 'deploy', args: { service: 'api\u202e<img src=x>' }, id: 'd1' },
          ]),
          textResponse('done'),
        ]),
      )
      .tools([approvalRequired(deploy)])
      .store(store)
      .streamId('deploy-api')
      .logger({ warn: () => undefined })
      .build();
    await agent.query('Deploy');
    const started = await consoleOn(store);

    const browser = await launch();
    try {
      const browserContext = await browser.newContext();
      const problems: string[] = [];
      const page = await browserContext.newPage();
      watch(page, problems);
      await page.goto(`${started.url}/`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForURL(`${started.url}/`), page.click('button[type=submit]')]);
      const row = await page.textContent('#inbox tbody');
      expect(row).toContain('\\u202e<img src=x>');
      expect(await page.locator('#inbox img').count()).toBe(0);

      // The run page's script (a same-origin file) appends each new event as a line.
      const runPage = await browserContext.newPage();
      watch(runPage, problems);
      await runPage.goto(`${started.url}/runs/deploy-api`);

      await page.click('a:text("decide")');
      expect(await page.textContent('#args')).toContain('\\u202e<img src=x>');
      await page.fill('#approve-note', 'checked');
      await Promise.all([page.waitForLoadState(), page.click('#approve button')]);
      expect(await page.textContent('.notice')).toContain('Approved d1 in deploy-api as ana');

      await runPage.waitForSelector('#live li:text("FeedbackReceived")');

      await page.goto(`${started.url}/`);
      expect(await page.textContent('#empty')).toBe('No tool call waits for a decision.');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
    const decided = (await store.readStream('deploy-api')).filter(
      (event) => event.type === 'FeedbackReceived',
    );
    expect(decided.map((event) => event.data)).toEqual([
      { toolCallId: 'd1', feedback: { kind: 'approved' }, by: 'ana', note: 'checked' },
    ]);
  }, 120_000);

  it("REV-3 WRK-2 a11y: a waiting call of a worker's run reaches the inbox; axe finds no serious or critical violation on the inbox, run and decide pages; the decision is made with the keyboard alone; the open run page shows the continued run without a reload", async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const store = createInMemoryEventStore();
    const deploy = deployTool();
    // One script for every run the worker makes: the call, then the answer once it is approved.
    const model = scriptedModel([
      toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
      textResponse('Deployed api.'),
    ]);
    const shutdown = new AbortController();
    const worker = createWorker({
      store,
      agents: {
        deployer: () =>
          Agent.builder()
            .llm(model)
            .tools([approvalRequired(deploy)])
            .logger({ warn: () => undefined }),
      },
      id: 'w1',
      pollMs: 20,
      signal: shutdown.signal,
      logger: { warn: () => undefined },
    });
    await requestRun(store, { streamId: 'deploy-api', agent: 'deployer', input: 'Deploy api' });
    const started = await consoleOn(store);
    const browser = await launch();
    try {
      const browserContext = await browser.newContext();
      const problems: string[] = [];
      const page = await browserContext.newPage();
      watch(page, problems);
      await signIn(page, started.url);
      // The worker ran the request and stopped on the call: the inbox shows it once it is there.
      for (let tries = 0; (await page.locator('#inbox').count()) === 0; tries += 1) {
        expect(tries, 'the waiting call in the inbox').toBeLessThan(100);
        await page.waitForTimeout(100);
        await page.reload();
      }
      expect(await page.textContent('#inbox tbody')).toContain('deploy');
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, 'console-inbox');

      const runPage = await browserContext.newPage();
      watch(runPage, problems);
      await runPage.goto(`${started.url}/runs/deploy-api`);
      expect(await seriousViolations(runPage)).toEqual([]);
      await shoot(runPage, 'console-run');
      // A mark on the window: a reload would lose it.
      await runPage.evaluate(() => ((globalThis as { mark?: string }).mark = 'not reloaded'));

      await page.goto(`${started.url}/runs/deploy-api/calls/d1`);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, 'console-decide');

      // Keyboard only: Tab from the top of the page to the approval's note, type it, Enter.
      const noteFocused = async () => (await page.locator('#approve-note:focus').count()) === 1;
      for (let tabs = 0; !(await noteFocused()); tabs += 1) {
        expect(tabs, 'Tab presses to reach the approval note').toBeLessThan(20);
        await page.keyboard.press('Tab');
      }
      await page.keyboard.type('checked with the keyboard');
      await Promise.all([page.waitForURL(/\/calls\/d1$/), page.keyboard.press('Enter')]);
      expect(await page.textContent('.notice')).toContain('Approved d1 in deploy-api as ana');
      expect(await decisionsOf(store, 'deploy-api')).toEqual([
        {
          toolCallId: 'd1',
          feedback: { kind: 'approved' },
          by: 'ana',
          note: 'checked with the keyboard',
        },
      ]);

      // The worker continues the run; the run page, left open, shows its events as they come.
      await runPage.waitForSelector('#live li:text("FeedbackReceived")');
      await runPage.waitForSelector('#live li:text("ToolCallCompleted")');
      expect(await runPage.evaluate(() => (globalThis as { mark?: string }).mark)).toBe(
        'not reloaded',
      );
      await page.goto(`${started.url}/`);
      expect(await page.textContent('#empty')).toBe('No tool call waits for a decision.');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      shutdown.abort();
      await worker;
    }
  }, 120_000);

  it('REV-1 REV-3: a stream full of markup, script, escape codes and bidi characters renders inert and visible; POSTs without a session or without the CSRF token are refused and write nothing', async (context) => {
    context.skip(
      !existsSync(chromium),
      `${chromium} is absent: apt-get install chromium to run this test`,
    );
    const hostile =
      '\u001b[2J\u001b]0;title\u0007\u202eevil' +
      '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' +
      '<b onmouseover=alert(1)>bold</b>';
    const store = createInMemoryEventStore();
    const deploy = deployTool();
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([{ name: 'deploy', args: { service: hostile }, id: 'd1' }]),
        ]),
      )
      .tools([approvalRequired(deploy)])
      .store(store)
      .streamId('hostile')
      .logger({ warn: () => undefined })
      .build();
    await agent.query(hostile);
    const started = await consoleOn(store);
    const before = await store.readStream('hostile');
    const browser = await launch();
    try {
      // Signed out: the API refuses the POST (the page is only the console's origin).
      const signedOut = await browser.newPage();
      await signedOut.goto(`${started.url}/login`);
      const anonymous = await signedOut.evaluate(async () => {
        const response = await fetch('/api/decisions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ streamId: 'hostile', toolCallId: 'd1', decision: 'approve' }),
        });
        return response.status;
      });
      expect(anonymous).toBe(401);

      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const problems: string[] = [];
      watch(page, problems);
      await signIn(page, started.url);
      for (const path of ['/', '/runs/hostile/calls/d1', '/runs/hostile']) {
        await page.goto(`${started.url}${path}`);
        await page.hover('main');
        const text = (await page.textContent('main')) ?? '';
        expect([path, text]).toEqual([path, expect.stringContaining('\\u001b[2J') as unknown]);
        expect(text).toContain('\\u001b]0;title\\u0007');
        expect(text).toContain('\\u202eevil');
        // The inbox shows the start of the arguments; the other pages show them in full.
        if (path !== '/') expect(text).toContain('<script>window.__pwned = 1</script>');
        expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
        expect(await page.locator('main script, main img, [onerror], [onmouseover]').count()).toBe(
          0,
        );
        expect(
          await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
        ).toBeUndefined();
      }
      expect(problems).toEqual([]);
      // Signed in, but a POST without the session's CSRF token: refused (the browser logs the 403s).
      const forged = await page.evaluate(async () => {
        const api = await fetch('/api/decisions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ streamId: 'hostile', toolCallId: 'd1', decision: 'approve' }),
        });
        const form = await fetch('/runs/hostile/calls/d1', {
          method: 'POST',
          body: new URLSearchParams({ decision: 'approve' }),
        });
        return [api.status, form.status];
      });
      expect(forged).toEqual([403, 403]);
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
    expect(await store.readStream('hostile')).toEqual(before);
  }, 120_000);
});

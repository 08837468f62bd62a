import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, approvalRequired, createInMemoryEventStore, tool } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { reviewersOf } from './reviewers.js';
import { startConsole, type RunningConsole } from './startConsole.js';

const chromium = '/usr/bin/chromium';
const TOKEN = 'ana-token-0123456789abcdef';

const running: RunningConsole[] = [];
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
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys a service.',
      parameters: z.object({ service: z.string() }),
      execute: ({ service }) => `deployed ${service}`,
    });
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
    const started = await startConsole({
      store,
      reviewers: reviewersOf([{ name: 'ana', token: TOKEN }], 'users.json'),
      port: 0,
    });
    running.push(started);

    const { chromium: browserType } = await import('playwright-core');
    const browser = await browserType.launch({
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
    try {
      const browserContext = await browser.newContext();
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
      };
      const page = await browserContext.newPage();
      watch(page);
      page.setDefaultTimeout(30_000);
      await page.goto(`${started.url}/`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForURL(`${started.url}/`), page.click('button[type=submit]')]);
      const row = await page.textContent('#inbox tbody');
      expect(row).toContain('\\u202e<img src=x>');
      expect(await page.locator('#inbox img').count()).toBe(0);

      // The run page's script (a same-origin file) appends each new event as a line.
      const runPage = await browserContext.newPage();
      watch(runPage);
      runPage.setDefaultTimeout(30_000);
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
});

import { foldStream, isAgentlogError, requestStop, type EventStore } from '@agentlog/core';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import { reportCsp, renderReport } from './report/renderReport.js';
import { runSummaries, visibleLine, type RunSummary } from '@agentlog/core/read-models';
import { consoleCsp, consoleCss, consoleJs, type PageFrame } from './consolePage.js';
import { callPath, runPath } from './consolePaths.js';
import { decisionView } from './decisionView.js';
import { inboxView } from './inboxView.js';
import { loginView } from './loginView.js';
import { needsWork } from './needsWork.js';
import { noticeView } from './noticeView.js';
import { runsView } from './runsView.js';
import { runView } from './runView.js';
import { recordReviewerDecision } from './recordReviewerDecision.js';
import { decisionOf } from './decisionOf.js';
import { inboxEntries } from './inboxEntries.js';
import { storedEvents } from './storedEvents.js';
import type { Reviewers } from './reviewers.js';
import { csrfMatches, Sessions, type Session } from './sessions.js';
import { SignInLimiter } from './signInLimiter.js';
import { clientOf, crossSite, isForm, refuse, tooMany } from './requestFacts.js';

/** The name of the session cookie. */
export const SESSION_COOKIE = 'agentlog_session';

/** What the console is built on. */
export interface ConsoleOptions {
  /** The store the console reads and writes decisions to. */
  readonly store: EventStore;
  /** Who may sign in (see `loadReviewers`). */
  readonly reviewers: Reviewers;
  /** The sessions; default: a new in-memory map with eight-hour sessions. */
  readonly sessions?: Sessions;
  /** The clock of the inbox's ages. Default: `Date.now`. */
  readonly now?: () => number;
  /** Who sent too many wrong tokens; default: 10 per minute per remote address, on `now`. */
  readonly signInLimiter?: SignInLimiter;
}

interface ConsoleEnv {
  Variables: { reviewer: string; session: Session | undefined };
}

type ConsoleContext = Context<ConsoleEnv>;

/**
 * The reviewer's web console (`agentlog serve`) as a Hono app: sign-in, the inbox, decide pages,
 * runs, stop and the audit page, and the JSON API. No page or API route answers without a
 * reviewer (a session cookie or `Authorization: Bearer <token>`); decisions and stops record the
 * signed-in reviewer as `by`, never a field of the request; every POST of a cookie session needs
 * its CSRF token; every response carries a strict CSP and no page runs inline script (SPEC REV-3).
 * A decision on a call that no longer waits writes nothing (SPEC REV-4).
 */
export function createConsole(options: ConsoleOptions): Hono<ConsoleEnv> {
  const { store, reviewers } = options;
  const sessions = options.sessions ?? new Sessions();
  const now = options.now ?? Date.now;
  const limiter = options.signInLimiter ?? new SignInLimiter(now);
  const app = new Hono<ConsoleEnv>();

  app.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Content-Security-Policy'))
      c.res.headers.set('Content-Security-Policy', consoleCsp);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    c.res.headers.set('X-Frame-Options', 'DENY');
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use(bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.text('request too large', 413) }));
  // A form posted from another site is refused whoever sent it (login CSRF included). Under
  // `Referrer-Policy: no-referrer` a browser sends `Origin: null` for the console's own forms, so
  // the Fetch Metadata header `Sec-Fetch-Site` decides when it is there.
  app.use(async (c, next) => {
    if (c.req.method === 'POST' && crossSite(c))
      return refuse(c, 403, 'cross-origin request refused');
    return next();
  });

  app.get('/console.css', (c) =>
    c.body(consoleCss, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'no-cache',
    }),
  );
  app.get('/console.js', (c) =>
    c.body(consoleJs, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
    }),
  );
  // No icon: an empty answer, so browsers do not log a missing one.
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/login', (c) => c.html(loginView(false)));
  app.post('/login', async (c) => {
    const client = clientOf(c);
    const wait = limiter.waitOf(client);
    if (wait > 0) return tooMany(c, wait);
    const form = await c.req.parseBody();
    const token = typeof form['token'] === 'string' ? form['token'] : '';
    const reviewer = token === '' ? undefined : reviewers.nameOf(token);
    if (reviewer === undefined) {
      limiter.fail(client);
      return c.html(loginView(true), 401);
    }
    limiter.succeed(client);
    const old = getCookie(c, SESSION_COOKIE);
    if (old !== undefined) sessions.close(old);
    const session = sessions.open(reviewer);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: Math.floor((session.expiresAt - now()) / 1000),
    });
    return c.redirect('/', 303);
  });

  // Everything below needs a reviewer; a POST from a cookie session needs its CSRF token.
  app.use(async (c, next) => {
    const bearer = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1];
    const session = bearer === undefined ? sessions.get(getCookie(c, SESSION_COOKIE)) : undefined;
    const reviewer = bearer !== undefined ? reviewers.nameOf(bearer) : session?.reviewer;
    // A bearer token is a guess like a sign-in's: the same limit holds for it.
    if (bearer !== undefined) {
      const client = clientOf(c);
      const wait = limiter.waitOf(client);
      if (wait > 0) return tooMany(c, wait);
      if (reviewer === undefined) limiter.fail(client);
      else limiter.succeed(client);
    }
    if (reviewer === undefined) {
      if (c.req.path.startsWith('/api/'))
        return c.json({ error: 'sign in: send Authorization: Bearer <token>' }, 401, {
          'WWW-Authenticate': 'Bearer',
        });
      return c.redirect('/login', 303);
    }
    // A bearer token is never sent by a browser on its own, so it needs no CSRF token.
    if (c.req.method === 'POST' && session !== undefined) {
      const header = c.req.header('X-CSRF-Token');
      const given = header ?? (isForm(c) ? (await c.req.parseBody())['csrf'] : undefined);
      if (!csrfMatches(session, given))
        return refuse(c, 403, 'missing or wrong CSRF token: reload the page and try again');
    }
    c.set('reviewer', reviewer);
    c.set('session', session);
    return next();
  });

  const frame = (c: ConsoleContext, title: string): PageFrame => {
    const session = c.get('session');
    return {
      title,
      reviewer: c.get('reviewer'),
      ...(session === undefined ? {} : { csrf: session.csrf }),
    };
  };

  app.post('/logout', (c) => {
    const session = c.get('session');
    if (session !== undefined) sessions.close(session.id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/login', 303);
  });

  // The first fold of every stream starts now, so the first reviewer does not wait for it. Only a
  // head start: later folds continue from this process's last fold of each stream.
  void inboxEntries(store).catch(() => undefined);
  app.get('/', async (c) => c.html(inboxView(frame(c, 'inbox'), await inboxEntries(store), now())));
  app.get('/api/pending', async (c) => {
    const { entries, unreadable } = await inboxEntries(store);
    return c.json({
      pending: entries,
      unreadable: unreadable.map(({ streamId, error }) => ({ streamId, error: error.message })),
    });
  });

  /** Every run, folded from this process's last fold of it; unreadable streams are skipped. */
  const allRuns = async (): Promise<readonly RunSummary[]> => (await runSummaries(store)).runs;
  app.get('/runs', async (c) => {
    const status = c.req.query('status');
    const needs = c.req.query('needs') === 'work';
    const rows = (await allRuns()).filter(
      ({ state, work }) =>
        (status === undefined || state.status === status) && (!needs || needsWork(state, work)),
    );
    const filter = needs
      ? '/runs?needs=work'
      : status === undefined
        ? '/runs'
        : `/runs?status=${status}`;
    return c.html(runsView(frame(c, 'runs'), rows, filter, store.work !== undefined));
  });
  app.get('/api/runs', async (c) =>
    c.json({
      runs: (await allRuns()).map(({ streamId, state, work }) => ({
        streamId,
        status: state.status,
        stopReason: state.stopReason ?? null,
        revision: state.revision,
        lastEventAt: state.lastEventAt ?? null,
        needsWork: needsWork(state, work),
        work: work ?? null,
      })),
    }),
  );

  app.get('/runs/:id', async (c) => {
    const streamId = c.req.param('id');
    const stored = await storedEvents(store, streamId);
    if (stored.length === 0) return notFound(c, `no stream ${visibleLine(streamId)}`);
    const { events, state } = foldStream(stored);
    return c.html(runView(frame(c, streamId), streamId, events, state));
  });
  app.get('/runs/:id/audit', async (c) => {
    const streamId = c.req.param('id');
    const stored = await storedEvents(store, streamId);
    if (stored.length === 0) return notFound(c, `no stream ${visibleLine(streamId)}`);
    // The report's own policy (its one style sheet by hash, no script), and no framing.
    return c.html(renderReport({ streamId, source: 'console', ...foldStream(stored) }), 200, {
      'Content-Security-Policy': `${reportCsp}; frame-ancestors 'none'`,
    });
  });
  app.get('/api/runs/:id/events', (c) => {
    const streamId = c.req.param('id');
    const from = Number(c.req.query('from') ?? '0');
    if (!Number.isSafeInteger(from) || from < 0)
      return c.json({ error: 'from must be a revision (a whole number, 0 or more)' }, 400);
    return streamSSE(c, async (stream) => {
      let writes = Promise.resolve();
      const ended = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        const subscription = store.subscribeToStream(streamId, { fromRevision: from }).subscribe({
          next: (event) => {
            writes = writes.then(() =>
              stream.writeSSE({ id: String(event.metadata.revision), data: JSON.stringify(event) }),
            );
          },
          error: () => resolve(),
          complete: () => resolve(),
        });
        stream.onAbort(() => subscription.unsubscribe());
      });
      await ended;
      await writes;
    });
  });

  app.get('/runs/:id/calls/:callId', async (c) => {
    const streamId = c.req.param('id');
    const toolCallId = c.req.param('callId');
    const stored = await storedEvents(store, streamId);
    if (stored.length === 0) return notFound(c, `no stream ${visibleLine(streamId)}`);
    const { state } = foldStream(stored);
    if (state.toolCalls[toolCallId] === undefined)
      return notFound(
        c,
        `stream ${visibleLine(streamId)} has no tool call ${visibleLine(toolCallId)}`,
      );
    return c.html(decisionView(frame(c, toolCallId), streamId, state, toolCallId));
  });
  app.post('/runs/:id/calls/:callId', async (c) => {
    const streamId = c.req.param('id');
    const toolCallId = c.req.param('callId');
    const form = await c.req.parseBody();
    const back: [string, string][] = [
      [callPath(streamId, toolCallId), 'back to the call'],
      ['/', 'inbox'],
    ];
    const request = decisionOf({ ...form, streamId, toolCallId });
    if (typeof request === 'string')
      return c.html(noticeView(frame(c, 'bad request'), request, back), 400);
    const outcome = await recordReviewerDecision(store, request, c.get('reviewer'));
    if (!outcome.ok)
      return c.html(noticeView(frame(c, 'not recorded'), outcome.message, back), outcome.status);
    const verb = request.decision === 'approve' ? 'Approved' : 'Refused';
    return c.html(
      noticeView(
        frame(c, 'recorded'),
        `${verb} ${toolCallId} in ${streamId} as ${c.get('reviewer')} at revision ${outcome.event.metadata.revision}.`,
        [
          ['/', 'inbox'],
          [runPath(streamId), 'the run'],
        ],
        true,
      ),
    );
  });
  app.post('/api/decisions', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'the body must be a JSON object' }, 400);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return c.json({ error: 'the body must be a JSON object' }, 400);
    const request = decisionOf(body as Record<string, unknown>, true);
    if (typeof request === 'string') return c.json({ error: request }, 400);
    const outcome = await recordReviewerDecision(store, request, c.get('reviewer'));
    if (!outcome.ok) return c.json({ error: outcome.message }, outcome.status);
    return c.json({ event: outcome.event }, 201);
  });

  const stop = async (streamId: string, by: string, reason: string | undefined) => {
    if ((await storedEvents(store, streamId, { maxCount: 1 })).length === 0)
      return { status: 404 as const, message: `no stream ${visibleLine(streamId)}` };
    try {
      await requestStop(store, streamId, { reason: reason ?? `stopped by ${by}`, by });
    } catch (error) {
      if (isAgentlogError(error) && error.code === 'notRunning')
        return {
          status: 409 as const,
          message: 'Nothing was recorded: the run is not in progress any more.',
        };
      throw error;
    }
    return { status: 201 as const, message: `asked the run of ${streamId} to stop` };
  };
  app.post('/runs/:id/stop', async (c) => {
    const streamId = c.req.param('id');
    const form = await c.req.parseBody();
    const reason =
      typeof form['reason'] === 'string' && form['reason'].trim() !== ''
        ? form['reason']
        : undefined;
    const result = await stop(streamId, c.get('reviewer'), reason);
    const links: [string, string][] = [[runPath(streamId), 'the run']];
    return c.html(
      noticeView(frame(c, 'stop'), result.message, links, result.status === 201),
      result.status === 201 ? 200 : result.status,
    );
  });
  app.post('/api/runs/:id/stop', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { reason?: unknown };
    const reason =
      typeof body.reason === 'string' && body.reason.trim() !== '' ? body.reason : undefined;
    const result = await stop(c.req.param('id'), c.get('reviewer'), reason);
    return result.status === 201
      ? c.json({ stopRequested: true }, 201)
      : c.json({ error: result.message }, result.status);
  });

  app.notFound((c) =>
    c.req.path.startsWith('/api/') ? c.json({ error: 'not found' }, 404) : c.text('not found', 404),
  );
  app.onError((error, c) => {
    // One line, no stack, nothing from the request echoed back.
    console.error(`agentlog serve: ${visibleLine(error.message.split('\n')[0] ?? '')}`);
    return c.req.path.startsWith('/api/')
      ? c.json({ error: 'internal error' }, 500)
      : c.text('internal error', 500);
  });
  return app;

  function notFound(c: ConsoleContext, message: string): Response {
    return c.html(noticeView(frame(c, 'not found'), message, [['/', 'inbox']]), 404);
  }
}

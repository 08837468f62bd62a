import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { decodeEvent, type EventStore, type FeedbackReceived } from '@agentlog/core';
import { Verdict, type ReviewedCall, type Reviewer } from './reviewer.js';
import { spawnAgentlogServe } from './spawnAgentlogServe.js';
import type { Style } from './style.js';
import { Interrupted } from './terminalReviewer.js';
import { writeUsersFile } from './writeUsersFile.js';

/** Where the console reviewer runs and what it prints. */
export interface ConsoleReviewerOptions {
  /** The reviewer the console admits: the author of every decision (SPEC REV-3). */
  readonly name: string;
  readonly store: EventStore;
  /** The SQLite file of `store`, which `agentlog serve` opens too. */
  readonly storePath: string;
  readonly cwd: string;
  readonly print: (line: string) => void;
  readonly style: Style;
  /** Ctrl-C: the wait for a decision ends as Interrupted, the call keeps waiting in the stream. */
  readonly signal?: AbortSignal;
  /** The port to listen on; `0` (the default) picks a free one. */
  readonly port?: number;
}

/** A reviewer behind the web console, and the console it started. */
export interface ConsoleReviewer extends Reviewer {
  readonly url: string;
  /** Stops the console and removes its users file. */
  close(): Promise<void>;
}

/**
 * `npm start -- --serve`: the reviewer is whoever signs in to the web console (`agentlog serve`,
 * docs/console.md) with a token made for this run. Each proposal waits until a decision on its
 * call is recorded in the stream, by the console, then maps it: an approval writes the notes, a
 * refusal with a reason (the words the model reads, HITL-14) asks for a revision, a refusal
 * without one rejects. The console recorded the decision, so the loop records nothing more.
 */
export async function startConsoleReviewer(
  options: ConsoleReviewerOptions,
): Promise<ConsoleReviewer> {
  const usersFile = join(options.cwd, '.agentlog', 'console-users.json');
  const user = await writeUsersFile(usersFile, options.name);
  let serve;
  try {
    serve = await spawnAgentlogServe({
      storePath: options.storePath,
      usersFile,
      cwd: options.cwd,
      ...(options.port === undefined ? {} : { port: options.port }),
    });
  } catch (error) {
    await rm(usersFile, { force: true });
    throw error;
  }
  const { print, style } = options;
  print(style.bold(`reviewer's console on ${serve.url}`));
  print(`  sign in as ${options.name} with the token ${user.token}`);
  print(style.dim(`  (made for this run, in ${usersFile}, mode 0600; gone when the run ends)`));
  const running = serve;
  return {
    name: options.name,
    url: running.url,
    async review(_proposal, call?: ReviewedCall): Promise<Verdict> {
      if (call === undefined) throw new Error('the console reviewer needs the call to wait on');
      print(
        style.yellow(
          `  ⏸ decide on ${running.url}/runs/${encodeURIComponent(call.streamId)}/calls/${encodeURIComponent(call.toolCallId)}`,
        ),
      );
      print(
        style.dim(
          '    approve writes the notes; refuse with a reason asks for a revision (the model reads the reason); refuse without one rejects',
        ),
      );
      const decision = await decisionOn(options.store, call, options.signal);
      const { feedback } = decision.data;
      if (feedback.kind === 'approved') return Verdict.recorded(Verdict.approve());
      const reason = feedback.reason?.trim();
      return Verdict.recorded(
        reason === undefined || reason === '' ? Verdict.reject() : Verdict.revise(reason),
      );
    },
    async close() {
      await running.close();
      await rm(usersFile, { force: true });
    },
  };
}

/** The first decision recorded on the call, as the stream's subscription delivers it. */
function decisionOn(
  store: EventStore,
  call: ReviewedCall,
  signal?: AbortSignal,
): Promise<FeedbackReceived> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Interrupted('interrupted while waiting for the console'));
      return;
    }
    const onAbort = () => {
      subscription.unsubscribe();
      reject(new Interrupted('interrupted while waiting for the console'));
    };
    const subscription = store.subscribeToStream(call.streamId).subscribe({
      next(stored) {
        const decision = decodeEvent(stored);
        if (decision.type !== 'FeedbackReceived' || decision.data.toolCallId !== call.toolCallId)
          return;
        signal?.removeEventListener('abort', onAbort);
        // Delivered synchronously on catch-up: unsubscribe once the subscription exists.
        queueMicrotask(() => subscription.unsubscribe());
        resolve(decision);
      },
      error(error: unknown) {
        signal?.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

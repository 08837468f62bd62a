import { visibleLine, visibleText } from '@agentlog/core/read-models';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import {
  isAgentlogError,
  pendingDecisions,
  ToolFeedback,
  type Agent,
  type ChatCompletion,
  type EventStore,
  type StreamEvent,
} from '@agentlog/core';
import { createOpenAiChatCompletion } from '@agentlog/core/openai';
import { createSqliteEventStore, writeJsonl } from '@agentlog/store';
import { draftReleaseNotes, GaveUp, type Outcome } from './draftReleaseNotes.js';
import { gitHistory, InputError, sampleHistory, taskFor, type History } from './gitLog.js';
import { createOfflineDrafter, OFFLINE_DRAFTER_LABEL } from './offlineDrafter.js';
import { createOfflineModel, RECORDED_FEEDBACK, readRecordings } from './offlineModel.js';
import type { Reviewer } from './reviewer.js';
import { startConsoleReviewer } from './startConsoleReviewer.js';
import { buildReleaseNotesAgent } from './releaseNotesAgent.js';
import { printCommands, printNotes } from './printSummary.js';
import { styleFor, type Style } from './style.js';
import { Interrupted, terminalReviewer } from './terminalReviewer.js';
import { announcingDecisions, withTimeline } from './timeline.js';
import { RELEASE_NOTES_FILE } from './writeChangelog.js';

/** Streams of this example start with this, so `npm start` finds its unfinished one. */
export const STREAM_PREFIX = 'release-notes-';

/** Where the command line runs: real streams in `main.ts`, fakes in tests. */
export interface CliIo {
  readonly input: NodeJS.ReadableStream;
  readonly write: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly isTTY: boolean;
  /** Aborts a run of the agent (Ctrl-C while it runs; at the prompt the reviewer handles it). */
  readonly signal?: AbortSignal;
  /** The SQLite file; `.agentlog/agentlog.db` in `cwd` by default. */
  readonly storePath?: string;
}

const USAGE = `usage: npm start -- [options]
  --repo PATH --from TAG --to TAG   draft from \`git log FROM..TO\` of a repository
                                    (default: the sample history shipped with the example)
  --out DIR                         where RELEASE_NOTES.md goes (default .agentlog/release-notes/)
  --by NAME                         the reviewer's name (default $AGENTLOG_USER, else the OS user)
  --yes                             approve every proposal without asking
  --serve                           review in the web console instead of at the terminal: prints
                                    its URL and a token made for this run, waits for decisions
  --new                             start a new stream instead of resuming an unfinished one
  --record FILE                     live only: save the run as a JSONL fixture, with its provenance
                                    in FILE.provenance.json (the key is never written)
Offline by default: recorded model answers while the run follows a recording, then the
${OFFLINE_DRAFTER_LABEL}. Set OPENAI_API_KEY (and OPENAI_BASE_URL for a gateway,
OPENAI_MODEL for the model) to run live.`;

/** Runs the showcase; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The model's streamed text stays on one line until anything else is printed.
  let streaming = false;
  const write = (text: string) => {
    if (streaming) io.write('\n');
    streaming = false;
    io.write(text);
  };
  const print = (line: string) => write(`${line}\n`);
  const style = styleFor({ isTTY: io.isTTY }, io.env);
  let args;
  try {
    args = parseArgs({
      args: [...argv],
      options: {
        repo: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
        by: { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        new: { type: 'boolean' },
        record: { type: 'string' },
        serve: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    print(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    print(USAGE);
    return 0;
  }
  const by = args.by ?? nonEmpty(io.env.AGENTLOG_USER) ?? osUser();
  const outputDir = args.out ? join(io.cwd, args.out) : join(io.cwd, '.agentlog', 'release-notes');
  const apiKey = nonEmpty(io.env.OPENAI_API_KEY);
  const baseURL = nonEmpty(io.env.OPENAI_BASE_URL);
  const live = apiKey !== undefined;
  if (args.record !== undefined && !live) {
    print(
      style.red(
        'error: --record saves a live run: set OPENAI_API_KEY (offline runs replay a recording)',
      ),
    );
    return 2;
  }

  if (args.serve && args.yes) {
    print(style.red('error: --serve and --yes exclude each other: the console reviewer decides'));
    return 2;
  }

  let history: History;
  try {
    history = await readHistory(args, io.cwd);
  } catch (error) {
    if (error instanceof InputError) {
      print(style.red(`error: ${error.message}`));
      return 1;
    }
    throw error;
  }

  const storePath = io.storePath ?? join(io.cwd, '.agentlog', 'agentlog.db');
  const store = createSqliteEventStore({ path: storePath });
  try {
    const resumed = args.new ? undefined : await unfinishedStream(store);
    const streamId = resumed ?? `${STREAM_PREFIX}${history.to}-${Date.now()}`;
    const done: StreamEvent[] = resumed ? await store.readStream(resumed) : [];
    let model: ChatCompletion;
    if (apiKey !== undefined) {
      model = createOpenAiChatCompletion({
        model: nonEmpty(io.env.OPENAI_MODEL) ?? 'gpt-4.1-mini',
        apiKey,
        ...(baseURL === undefined ? {} : { baseURL }),
      });
    } else {
      model = createOfflineModel(await readRecordings(), {
        done,
        fallback: announced(createOfflineDrafter(), print, style),
        onFallback: () =>
          print(
            style.yellow(
              `  the run left the offline recordings: the ${OFFLINE_DRAFTER_LABEL} answers from here`,
            ),
          ),
      });
    }
    const agent = await buildReleaseNotesAgent({
      model,
      store,
      streamId,
      outputDir,
      configure: (builder) => withTimeline(builder, print, style),
    });
    print(
      style.bold(
        `agentlog showcase: release notes for ${history.to}, with ${by} in the loop (${
          live
            ? 'live, on the OpenAI adapter'
            : `offline: recorded model answers, then the ${OFFLINE_DRAFTER_LABEL} if the run leaves them`
        })`,
      ),
    );
    if (resumed) {
      print(style.dim(`resuming the unfinished stream ${resumed} (--new starts afresh)`));
    } else {
      print(
        style.dim(
          `${history.lines.length} commits ${history.from}..${history.to} from ${history.source}`,
        ),
      );
    }
    let reviewer: Reviewer & { close(): void | Promise<void> };
    if (args.serve) {
      reviewer = await startConsoleReviewer({
        name: by,
        store,
        storePath,
        cwd: io.cwd,
        print,
        style,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      });
    } else {
      reviewer = terminalReviewer({
        name: by,
        input: io.input,
        print,
        prompt: write,
        style,
        yes: args.yes ?? false,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        existingLines: () => existingLines(join(outputDir, RELEASE_NOTES_FILE)),
        ...(live
          ? {}
          : {
              feedbackHint: `(offline, the recording holds the feedback "${RECORDED_FEEDBACK}"; other words go to the ${OFFLINE_DRAFTER_LABEL})`,
            }),
      });
    }
    print('');

    let outcome: Outcome;
    try {
      outcome = await draftReleaseNotes(
        agent,
        taskFor(history),
        announcingDecisions(reviewer, print, style),
        {
          resume: resumed !== undefined,
          run: {
            ...(io.signal === undefined ? {} : { signal: io.signal }),
            ...(live
              ? {
                  onTextDelta: (delta: string) => {
                    if (!streaming) io.write(style.dim('  model: '));
                    streaming = true;
                    io.write(style.dim(visibleText(delta)));
                  },
                }
              : {}),
          },
        },
      );
    } catch (error) {
      if (error instanceof Interrupted) {
        print(
          style.yellow(
            `\n■ interrupted: ${streamId} still waits for approval; \`npm start\` resumes it, \`npm start -- --new\` starts afresh`,
          ),
        );
        return 130;
      }
      if (io.signal?.aborted) {
        print(
          style.yellow(`\n■ interrupted while the agent ran; the events so far are in ${streamId}`),
        );
        return 130;
      }
      if (isAgentlogError(error) || error instanceof GaveUp) {
        // A live failure (a refused key, a gateway that answers HTML, a model that never calls
        // stop) is one clear line; the stream keeps every event so far.
        print(style.red(`\n✗ ${failureText(error)}`));
        print(
          style.dim(`  the events so far are in ${streamId}; inspect it with the commands below`),
        );
        printCommands(streamId, storePath, io.cwd, print, style);
        return 1;
      }
      throw error;
    } finally {
      await reviewer.close();
    }

    const file = relative(io.cwd, join(outputDir, RELEASE_NOTES_FILE)) || RELEASE_NOTES_FILE;
    if (outcome.kind === 'written') {
      print(style.green(`  ✓ wrote ${file}`));
      if (outcome.notes) printNotes(outcome.notes, print, style);
    } else {
      await closeRejected(agent, by);
      print(style.red(`  ✗ nothing written: ${by} rejected the notes`));
    }
    if (args.record !== undefined) {
      const recorded = await recordSession(store, streamId, args.record, io.cwd, {
        model: nonEmpty(io.env.OPENAI_MODEL) ?? 'gpt-4.1-mini',
        ...(baseURL === undefined ? {} : { baseURL }),
      });
      print(style.green(`  ✓ recorded the session in ${relative(io.cwd, recorded) || recorded}`));
    }
    printCommands(streamId, storePath, io.cwd, print, style);
    return 0;
  } finally {
    store.close();
  }
}

async function readHistory(
  args: { repo?: string; from?: string; to?: string },
  cwd: string,
): Promise<History> {
  if (args.repo === undefined) {
    if (args.from !== undefined || args.to !== undefined) {
      throw new InputError('--from and --to need --repo PATH');
    }
    return sampleHistory();
  }
  if (args.from === undefined || args.to === undefined) {
    throw new InputError('--repo needs --from TAG and --to TAG');
  }
  return gitHistory(args.repo, args.from, args.to, cwd);
}

/** The last stream of this example that still waits for a decision. */
async function unfinishedStream(store: EventStore): Promise<string | undefined> {
  const streamIds = (await store.listStreams()).filter((id) => id.startsWith(STREAM_PREFIX));
  const waiting = await pendingDecisions(store, { streamIds });
  return waiting.at(-1)?.streamId;
}

/** A rejection is recorded as a refusal, so the stream is not resumed as unfinished. */
async function closeRejected(agent: Agent, by: string): Promise<void> {
  for (const { toolCall } of agent.pendingFeedback()) {
    await agent
      .context()
      .feedbackReceived(toolCall, ToolFeedback.refused(), { by, note: 'rejected' });
  }
}

function existingLines(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8').replace(/\n+$/, '').split('\n').length;
}

/** The offline drafter, saying what it does each time it answers: it is not a model. */
function announced(
  drafter: ChatCompletion,
  print: (line: string) => void,
  style: Style,
): ChatCompletion {
  return {
    async complete(request, options) {
      const response = await drafter.complete(request, options);
      if (response.message !== undefined) print(style.dim(`  ${visibleLine(response.message)}`));
      return response;
    },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'maintainer';
  }
}

/** A live failure in words a person acts on. */
function failureText(error: { message: string; kind?: unknown }): string {
  switch (error.kind) {
    case 'authentication':
      return `the API key was refused: set a valid OPENAI_API_KEY (${error.message})`;
    case 'badResponse':
    case 'serverError':
      return `the model's endpoint did not answer with a chat completion: ${error.message}`;
    default:
      return error.message;
  }
}

/**
 * Saves a live run as a fixture (SPEC RPL-4): the stream as JSONL (the store masked the key in
 * it, SPEC RPL-3) and its provenance beside it: recorded from which model, where, when.
 */
async function recordSession(
  store: EventStore,
  streamId: string,
  file: string,
  cwd: string,
  source: { readonly model: string; readonly baseURL?: string },
): Promise<string> {
  const path = join(cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeJsonl(path, await store.readStream(streamId));
  const provenance = {
    kind: 'recorded',
    model: source.model,
    endpoint:
      source.baseURL === undefined ? 'https://api.openai.com/v1' : new URL(source.baseURL).origin,
    recordedAt: new Date().toISOString(),
    streamId,
    by: 'npm start -- --record',
  };
  await writeFile(`${path}.provenance.json`, `${JSON.stringify(provenance, null, 2)}\n`);
  return path;
}

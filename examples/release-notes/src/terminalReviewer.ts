import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { visibleText } from '@agentlog/core/read-models';
import { Verdict, type Reviewer } from './reviewer.js';
import type { Style } from './style.js';
import { RELEASE_NOTES_FILE, type WriteChangelogArgs } from './writeChangelog.js';

/** Ctrl-C at the prompt: the run stops, the call keeps waiting in the stream. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

/** Where the terminal reviewer reads and writes, and what it says. */
export interface TerminalReviewerOptions {
  readonly name: string;
  readonly input: NodeJS.ReadableStream;
  readonly print: (line: string) => void;
  /** Writes a prompt without a newline. */
  readonly prompt: (text: string) => void;
  readonly style: Style;
  /** `--yes`: approve every proposal without asking. */
  readonly yes?: boolean;
  /** How many lines the current RELEASE_NOTES.md has, or undefined when there is none. */
  readonly existingLines?: () => number | undefined;
  /** Ctrl-C outside a terminal (piped input): the wait for an answer ends as Interrupted. */
  readonly signal?: AbortSignal;
  /** A hint printed before the feedback question (offline: the feedback a recording holds). */
  readonly feedbackHint?: string;
}

/**
 * A reviewer at a terminal, or a script piping answers (`echo y | npm start`): shows the proposed
 * file, asks `Write these release notes? [y/N]`, and on anything but yes asks for revision
 * feedback (an empty line rejects). When the input ends, there are no more answers: reject.
 */
export function terminalReviewer(options: TerminalReviewerOptions): Reviewer & { close(): void } {
  const { print, style } = options;
  const lines = lineReader(options.input, options.prompt, options.signal);
  const ask = async (question: string): Promise<string | undefined> => {
    // At a terminal readline writes the question and echoes what the reviewer types, so the
    // answer shows and what follows starts on a line of its own.
    if (lines.isTerminal) lines.prompt(question);
    else options.prompt(question);
    const answer = await lines.next();
    // Piped answers are not echoed by a terminal: show them, so the transcript reads well.
    if (!lines.isTerminal) options.prompt(`${visibleText(answer ?? '')}\n`);
    return answer;
  };
  return {
    name: options.name,
    close: () => lines.close(),
    async review(proposal: WriteChangelogArgs): Promise<Verdict> {
      showProposal(proposal, options);
      if (options.yes) {
        print(style.dim('Write these release notes? [y/N] y (--yes)'));
        return Verdict.approve();
      }
      const answer = await ask('Write these release notes? [y/N] ');
      if (answer === undefined) {
        print(style.dim('(no more answers: the input ended, so the notes are rejected)'));
        return Verdict.reject();
      }
      if (/^y(es)?$/i.test(answer.trim())) return Verdict.approve();
      if (options.feedbackHint) print(style.dim(options.feedbackHint));
      const feedback = await ask('What should change? (an empty line rejects) ');
      if (feedback === undefined || feedback.trim() === '') return Verdict.reject();
      return Verdict.revise(feedback.trim());
    },
  };
}

function showProposal(proposal: WriteChangelogArgs, options: TerminalReviewerOptions): void {
  // The model wrote it: its escapes, bidi and invisible characters are shown, not obeyed (REV-1).
  const body = visibleText(proposal.markdown.replace(/\n+$/, '')).split('\n');
  const existing = options.existingLines?.();
  const target =
    existing === undefined
      ? `a new file, ${RELEASE_NOTES_FILE}`
      : `${RELEASE_NOTES_FILE}, replacing its ${existing} lines`;
  options.print('');
  options.print(options.style.bold(`── proposed: ${body.length} lines into ${target}`));
  for (const line of body) options.print(`   ${line}`);
  options.print('');
}

/**
 * Lines of a stream, one per call; `undefined` once it ended. Ctrl-C rejects with Interrupted. At
 * a terminal, readline echoes what is typed (and the question, see `prompt`) through `write`.
 */
function lineReader(
  input: NodeJS.ReadableStream,
  write: (text: string) => void,
  signal?: AbortSignal,
) {
  const isTerminal = (input as { isTTY?: boolean }).isTTY === true;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input, output, terminal: isTerminal, prompt: '' });
  const queued: string[] = [];
  const waiting: { resolve: (line: string | undefined) => void; reject: (e: Error) => void }[] = [];
  let ended = false;
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next) next.resolve(line);
    else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next.resolve(undefined);
  });
  const interrupt = () => {
    for (const next of waiting.splice(0)) next.reject(new Interrupted('interrupted at the prompt'));
    rl.close();
  };
  rl.on('SIGINT', interrupt);
  signal?.addEventListener('abort', interrupt, { once: true });
  return {
    isTerminal,
    /** Writes `question` as readline's prompt, so redrawing the line (a backspace) keeps it. */
    prompt(question: string): void {
      rl.setPrompt(question);
      rl.prompt(true);
    },
    next(): Promise<string | undefined> {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (signal?.aborted) return Promise.reject(new Interrupted('interrupted at the prompt'));
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    close: () => rl.close(),
  };
}

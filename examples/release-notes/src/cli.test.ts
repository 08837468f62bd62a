import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { runCli, type CliIo } from './cli.js';
import { RECORDED_FEEDBACK } from './offlineModel.js';
import { approvedDraft } from './scriptedSession.js';

async function start(
  answers: string | NodeJS.ReadableStream,
  argv: string[] = [],
  cwd?: string,
  env: NodeJS.ProcessEnv = {},
  /** Sees everything written so far, each time more is written. */
  watch?: (written: string) => void,
) {
  const dir = cwd ?? (await mkdtemp(join(tmpdir(), 'agentlog-cli-')));
  const out: string[] = [];
  const io: CliIo = {
    input: typeof answers === 'string' ? Readable.from([answers]) : answers,
    write: (text) => {
      out.push(text);
      watch?.(out.join(''));
    },
    env,
    cwd: dir,
    isTTY: false,
  };
  const code = await runCli(['--by', 'ana', ...argv], io);
  return {
    code,
    text: out.join(''),
    dir,
    notes: join(dir, '.agentlog/release-notes/RELEASE_NOTES.md'),
  };
}

/** A git repository with a tag v1.0.0, then one commit per message, tagged v1.1.0. */
async function gitRepo(messages: readonly string[]): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'agentlog-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'initial');
  git('tag', 'v1.0.0');
  for (const message of messages) git('commit', '-q', '--allow-empty', '-m', message);
  git('tag', 'v1.1.0');
  return repo;
}

/** The model name of each answer stored in the run's stream (`undefined`: the recording's). */
async function modelsOf(dir: string): Promise<(string | undefined)[]> {
  const store = createSqliteEventStore({ path: join(dir, '.agentlog/agentlog.db') });
  try {
    const [streamId] = await store.listStreams();
    return (await store.readStream(streamId!))
      .filter((event) => event.type === 'ModelResponded')
      .map((event) => (event.data as { response: { model?: string } }).response.model);
  } finally {
    store.close();
  }
}

describe('npm start, offline', () => {
  it('echo y: prints the timeline, writes the first draft, names the stream and its commands', async () => {
    const { code, text, notes } = await start('y\n');
    expect(code).toBe(0);
    for (const line of [
      '  → write_changelog <6 lines>\n',
      '  write_changelog ⏸ waiting for approval\n',
      '── proposed: 6 lines into a new file, RELEASE_NOTES.md\n',
      'Write these release notes? [y/N] y\n',
      '  ✓ approved by ana\n',
      'hooks see it twice, once when it asked, once when it ran; HITL-7',
      '  write_changelog ✓ wrote RELEASE_NOTES.md\n',
      '  stop ■ done\n',
      '0.34.0 — This release adds the opt-in agents-contrib crate.\n',
      'npx agentlog inspect release-notes-v0.34.0-',
      '--agent examples/release-notes/dist/agents.js',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain('\x1b[');
    expect(await readFile(notes, 'utf8')).toContain('# 0.34.0');
  });

  it('revise then y: the refusal with its words, the second draft written', async () => {
    const { code, text, notes } = await start(`n\n${RECORDED_FEEDBACK}\ny\n`);
    expect(code).toBe(0);
    expect(text).toContain(`  ✗ refused by ana: ${RECORDED_FEEDBACK}\n`);
    expect(text).toContain('  write_changelog ✗ not run: This tool call was refused\n');
    expect(text).toContain('  → write_changelog <13 lines>\n');
    expect(text).toContain('breaking changes (1)');
    expect(await readFile(notes, 'utf8')).toBe(`${approvedDraft}\n`);
  });

  it('an empty line rejects: nothing written, and the next run starts a new stream', async () => {
    const first = await start('n\n\n');
    expect(first.code).toBe(0);
    expect(first.text).toContain('  ✗ rejected by ana\n');
    expect(existsSync(first.notes)).toBe(false);
    const second = await start('y\n', [], first.dir);
    expect(second.text).not.toContain('resuming');
    expect(second.code).toBe(0);
  });

  it('feedback no recording holds: the offline drafter takes over, labelled, and writes the revision with the request', async () => {
    const { code, text, notes, dir } = await start('n\nAdd a haiku.\ny\n');
    expect(code).toBe(0);
    expect(text).not.toContain('set OPENAI_API_KEY to run live');
    expect(text).toContain(
      '  the run left the offline recordings: the offline drafter (deterministic rules, not a model) answers from here\n',
    );
    expect(text).toContain('  ✗ refused by ana: Add a haiku.\n');
    expect(text).toContain(
      "  offline drafter (deterministic rules, not a model): a revision with the reviewer's request added as they were written.\n",
    );
    const written = await readFile(notes, 'utf8');
    expect(written).toContain("## Reviewer's request\n- Add a haiku.\n");
    expect(written).toContain('## Breaking changes\n- bedrock: Remove AWS Console login');
    expect(written).toContain('_Drafted by the offline drafter (deterministic rules, not a model)');
    // The stored answers say what gave them: the recording's first draft, then the drafter.
    expect(await modelsOf(dir)).toEqual([undefined, 'offline-drafter', 'offline-drafter']);
  });

  it('Ctrl-C at the prompt leaves the stream waiting; the next run resumes it, --new does not', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => terminal });
    // Ctrl-C once the prompt is shown, however long the draft took to get there.
    let pressed = false;
    const first = await start(terminal, [], undefined, {}, (written) => {
      if (pressed || !written.includes('[y/N]')) return;
      pressed = true;
      // After the prompt's own write has returned, as a key press would come.
      setImmediate(() => terminal.write('\x03'));
    });
    expect(pressed).toBe(true);
    expect(first.code).toBe(130);
    expect(first.text).toContain('still waits for approval; `npm start` resumes it');
    const fresh = await start('', ['--new'], first.dir);
    expect(fresh.text).not.toContain('resuming');
    const resumed = await start('y\n', [], first.dir);
    expect(resumed.code).toBe(0);
    expect(resumed.text).toContain('resuming the unfinished stream release-notes-v0.34.0-');
    expect(resumed.text).toContain('  write_changelog ✓ wrote RELEASE_NOTES.md\n');
    expect(await readdir(join(first.dir, '.agentlog/release-notes'))).toEqual(['RELEASE_NOTES.md']);
  });

  it('--repo --from --to offline: the drafter groups your own history by conventional-commit prefix, end to end', async () => {
    const repo = await gitRepo([
      'feat(api): a new thing (#2)',
      'fix: an old bug (#3)',
      'feat!: drop the old config format',
      'chore: tidy up',
    ]);
    const { code, text, notes, dir } = await start('y\n', [
      '--repo',
      repo,
      '--from',
      'v1.0.0',
      '--to',
      'v1.1.0',
    ]);
    expect(text).toContain(`4 commits v1.0.0..v1.1.0 from ${repo}`);
    expect(text).toContain(
      'the run left the offline recordings: the offline drafter (deterministic rules, not a model) answers from here',
    );
    expect(text).toContain('  ✓ approved by ana\n');
    expect(text).toContain('  write_changelog ✓ wrote RELEASE_NOTES.md\n');
    expect(text).toContain('1.1.0 — Release 1.1.0: 1 new feature, 1 fix and 1 breaking change.\n');
    expect(text).toContain('    • api: A new thing [#2]\n');
    expect(code).toBe(0);
    const written = await readFile(notes, 'utf8');
    expect(written).toMatch(/## Breaking changes\n- Drop the old config format \([0-9a-f]+\)\n/);
    expect(written).toContain('## Highlights\n- api: A new thing (#2)\n');
    expect(written).toContain('## Fixes\n- An old bug (#3)\n');
    expect(written).toMatch(/## Other changes\n- Tidy up \([0-9a-f]+\)\n/);
    expect(await modelsOf(dir)).toEqual(['offline-drafter', 'offline-drafter']);
  });

  it('resumes a run that left the recordings: Ctrl-C at the second prompt, the next npm start writes the revision', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-cli-'));
    const interrupt = new AbortController();
    const input = new PassThrough();
    let prompts = 0;
    const out: string[] = [];
    const first = runCli(['--by', 'ana'], {
      input,
      write: (text) => {
        out.push(text);
        // Answers as the questions come: revise with words no recording holds, then Ctrl-C.
        if (text.startsWith('Write these release notes?')) {
          prompts += 1;
          if (prompts === 1) input.write('n\n');
          else interrupt.abort();
        }
        if (text.startsWith('What should change?')) input.write('Add a haiku.\n');
      },
      env: {},
      cwd: dir,
      isTTY: false,
      signal: interrupt.signal,
    });
    expect(await first).toBe(130);
    expect(out.join('')).toContain('still waits for approval');
    const resumed = await start('y\n', [], dir);
    expect(resumed.code).toBe(0);
    expect(resumed.text).toContain('resuming the unfinished stream release-notes-v0.34.0-');
    expect(resumed.text).toContain('  write_changelog ✓ wrote RELEASE_NOTES.md\n');
    expect(resumed.text).toContain(
      'the run left the offline recordings: the offline drafter (deterministic rules, not a model) answers from here',
    );
    expect(await readFile(resumed.notes, 'utf8')).toContain(
      "## Reviewer's request\n- Add a haiku.",
    );
    expect(await modelsOf(dir)).toEqual([undefined, 'offline-drafter', 'offline-drafter']);
  });

  it('REV-1 at a terminal: what the reviewer types is echoed, and the verdict prints on its own line', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => terminal });
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-cli-'));
    const out: string[] = [];
    let prompts = 0;
    const code = await runCli(['--by', 'ana'], {
      input: terminal,
      write: (text) => {
        out.push(text);
        // Keys typed one at a time, as a terminal in raw mode sends them, once each question shows.
        if (text.startsWith('Write these release notes?')) {
          prompts += 1;
          for (const key of prompts === 1 ? ['n', '\r'] : ['y', '\r']) terminal.write(key);
        }
        if (text.startsWith('What should change?'))
          for (const key of 'Add a haiku.\r') terminal.write(key);
      },
      env: {},
      cwd: dir,
      isTTY: true,
    });
    expect(code).toBe(0);
    // Cursor moves of readline's redraws aside, the transcript reads as typed.
    const shown = out.join('').replace(/\u001b\[[\d;]*[A-Za-z]/g, '');
    expect(shown).toContain('Write these release notes? [y/N] n\r\n');
    expect(shown).toContain(
      'What should change? (an empty line rejects) Add a haiku.\r\n  ✗ refused by ana: Add a haiku.\n',
    );
    expect(shown).toContain('Write these release notes? [y/N] y\r\n  ✓ approved by ana\n');
  });

  it('Ctrl-C with piped input (the abort signal) at the prompt: interrupted, resumable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-cli-'));
    const interrupt = new AbortController();
    const out: string[] = [];
    const pending = runCli(['--by', 'ana'], {
      input: new PassThrough(),
      write: (text) => {
        out.push(text);
        // The interrupt comes once the prompt is shown, however long the draft took.
        if (out.join('').includes('[y/N]') && !interrupt.signal.aborted) interrupt.abort();
      },
      env: {},
      cwd: dir,
      isTTY: false,
      signal: interrupt.signal,
    });
    expect(await pending).toBe(130);
    expect(interrupt.signal.aborted).toBe(true);
    expect(out.join('')).toContain('still waits for approval');
    const resumed = await start('y\n', [], dir);
    expect(resumed.text).toContain('resuming the unfinished stream');
  });

  it('bad input: --repo that is not a git repository, a tag that does not exist', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-not-git-'));
    const notGit = await start('', ['--repo', dir, '--from', 'v1', '--to', 'v2']);
    expect(notGit.code).toBe(1);
    expect(notGit.text).toBe(`error: --repo ${dir} is not a git repository\n`);
    const noTag = await start('', [
      '--repo',
      process.cwd(),
      '--from',
      'no-such-tag',
      '--to',
      'HEAD',
    ]);
    expect(noTag.code).toBe(1);
    expect(noTag.text).toContain('has no tag or commit named no-such-tag');
  });
});

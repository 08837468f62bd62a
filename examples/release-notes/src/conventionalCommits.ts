/** One line of `git log --oneline`, read by the conventional-commit rules. */
export interface Commit {
  readonly hash: string;
  /** `feat`, `fix`, `chore`, …; `undefined` when the subject has no conventional prefix. */
  readonly type?: string;
  readonly scope?: string;
  /** `feat!:` or `BREAKING CHANGE` in the subject. */
  readonly breaking: boolean;
  /** The subject without its prefix and its trailing `(#123)`. */
  readonly subject: string;
  /** The pull request (`#123`) when the subject names one, else the hash. */
  readonly reference: string;
}

/** Commits grouped the way release notes list them. */
export interface CommitGroups {
  readonly breaking: readonly Commit[];
  /** `feat` and `perf` commits that break nothing. */
  readonly features: readonly Commit[];
  readonly fixes: readonly Commit[];
  /** Everything else (`chore`, `docs`, `refactor`, no prefix, …). */
  readonly other: readonly Commit[];
}

const ONELINE = /^([0-9a-f]{4,40})\s+(.*)$/i;
const PREFIX = /^([a-z]+)(?:\(([^)]*)\))?(!)?:\s*(.*)$/i;
const PULL_REQUEST = /\s*\((#\d+)\)\s*$/;

/** Reads one `git log --oneline` line; `undefined` for a line that is not one. */
export function parseCommit(line: string): Commit | undefined {
  const oneline = ONELINE.exec(line.trim());
  if (!oneline) return undefined;
  const [, hash = '', rest = ''] = oneline;
  const pull = PULL_REQUEST.exec(rest);
  const text = pull ? rest.slice(0, pull.index) : rest;
  const prefix = PREFIX.exec(text);
  const subject = (prefix ? (prefix[4] ?? '') : text).trim();
  return {
    hash,
    ...(prefix ? { type: prefix[1]!.toLowerCase() } : {}),
    ...(prefix?.[2] ? { scope: prefix[2] } : {}),
    breaking: prefix?.[3] === '!' || /BREAKING[ -]CHANGE/.test(rest),
    subject,
    reference: pull?.[1] ?? hash,
  };
}

/** Groups commits by their conventional-commit prefix, keeping the log's order in each group. */
export function groupCommits(lines: readonly string[]): CommitGroups {
  const groups = { breaking: [] as Commit[], features: [], fixes: [], other: [] } as {
    breaking: Commit[];
    features: Commit[];
    fixes: Commit[];
    other: Commit[];
  };
  for (const line of lines) {
    const commit = parseCommit(line);
    if (commit === undefined) continue;
    if (commit.breaking) groups.breaking.push(commit);
    else if (commit.type === 'feat' || commit.type === 'perf') groups.features.push(commit);
    else if (commit.type === 'fix') groups.fixes.push(commit);
    else groups.other.push(commit);
  }
  return groups;
}

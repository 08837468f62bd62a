import {
  REFUSAL_TEXT,
  type ChatCompletion,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
} from '@agentlog/core';
import { groupCommits, type Commit, type CommitGroups } from './conventionalCommits.js';
import { NUDGE } from './draftReleaseNotes.js';
import type { ReleaseNotes } from './releaseNotes.js';

/** The model name the drafter's answers carry, so the stored events say what answered. */
export const OFFLINE_DRAFTER_MODEL = 'offline-drafter';

/** How the drafter is named wherever its output is shown. */
export const OFFLINE_DRAFTER_LABEL = 'offline drafter (deterministic rules, not a model)';

const TASK = /^Draft the release notes for (\S+), from the commits since (\S+):\n\n([\s\S]*)$/;

/**
 * A `ChatCompletion` that is not a model: it builds each answer from the request by fixed rules,
 * so the showcase runs offline on any history and any feedback. It reads the task (the version
 * and the `git log --oneline` lines), groups the commits by their conventional-commit prefix and
 * calls the agent's own tools: `write_changelog` with a draft (every reviewer request so far in a
 * "Reviewer's request" section), then, once a write went through, `stop` with the typed notes.
 * The same request always gets the same answer.
 */
export function createOfflineDrafter(): ChatCompletion {
  return {
    // eslint-disable-next-line @typescript-eslint/require-await -- the port is asynchronous
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      return draftAnswer(request);
    },
  };
}

/** The drafter's answer to one request. */
export function draftAnswer(request: CompletionRequest): CompletionResponse {
  for (const name of ['write_changelog', 'stop']) {
    if (!request.tools.some((spec) => spec.name === name)) {
      throw new Error(
        `the ${OFFLINE_DRAFTER_LABEL} calls write_changelog and stop; this agent has no ${name} tool`,
      );
    }
  }
  const task = taskOf(request.messages);
  const requests = reviewerRequests(request.messages);
  const id = `offline_drafter_${toolCallCount(request.messages) + 1}`;
  const groups = groupCommits(task.lines);
  if (lastWriteSucceeded(request.messages)) {
    return answer('the notes are written; stopping with them as typed data.', {
      id,
      name: 'stop',
      args: JSON.stringify(notesOf(task.version, groups)),
    });
  }
  const commits = task.lines.length;
  return answer(
    requests.length === 0
      ? `a first draft from ${commits} commits, grouped by their conventional-commit prefix.`
      : `a revision with the reviewer's ${requests.length === 1 ? 'request' : `${requests.length} requests`} added as they were written.`,
    {
      id,
      name: 'write_changelog',
      args: JSON.stringify({ markdown: markdownOf(task.version, groups, requests) }),
    },
  );
}

function answer(
  text: string,
  toolCall: { id: string; name: string; args: string },
): CompletionResponse {
  return {
    message: `${OFFLINE_DRAFTER_LABEL}: ${text}`,
    toolCalls: [toolCall],
    model: OFFLINE_DRAFTER_MODEL,
    finishReason: 'toolCalls',
  };
}

interface Task {
  readonly version: string;
  readonly lines: readonly string[];
}

function taskOf(messages: readonly ChatMessage[]): Task {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const match = TASK.exec(message.text);
    if (match) {
      const lines = (match[3] ?? '').split('\n').filter((line) => line.trim() !== '');
      return { version: match[1] ?? '', lines };
    }
  }
  throw new Error(
    `the ${OFFLINE_DRAFTER_LABEL} found no task "Draft the release notes for <version>, from the commits since <tag>:" in the history`,
  );
}

/**
 * What the reviewer asked for, in order: the words after a refusal (HITL-8, the terminal) and the
 * reason of a refusal (HITL-14, the console). The task and the loop's nudge are not requests.
 */
function reviewerRequests(messages: readonly ChatMessage[]): string[] {
  const requests: string[] = [];
  for (const message of messages) {
    if (message.role === 'user' && !TASK.test(message.text) && message.text !== NUDGE) {
      requests.push(message.text.trim());
    }
    if (message.role === 'tool' && message.output.kind === 'text') {
      const reason = refusalReason(message.output.text);
      if (reason !== undefined) requests.push(reason);
    }
  }
  return requests.filter((text) => text !== '');
}

function refusalReason(text: string): string | undefined {
  const prefix = `${REFUSAL_TEXT}: `;
  return text.startsWith(prefix) ? text.slice(prefix.length).trim() : undefined;
}

/** The last write_changelog call answered with a text that is not a refusal: it ran. */
function lastWriteSucceeded(messages: readonly ChatMessage[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user') return false;
    if (message.role !== 'tool' || message.toolCall.name !== 'write_changelog') continue;
    return message.output.kind === 'text' && !message.output.text.startsWith(REFUSAL_TEXT);
  }
  return false;
}

function toolCallCount(messages: readonly ChatMessage[]): number {
  return messages.reduce(
    (count, message) => count + (message.role === 'assistant' ? message.toolCalls.length : 0),
    0,
  );
}

function titleOf(commit: Commit): string {
  const subject = commit.subject.charAt(0).toUpperCase() + commit.subject.slice(1);
  return commit.scope === undefined ? subject : `${commit.scope}: ${subject}`;
}

function detailsOf(commit: Commit): string {
  const prefix = commit.type === undefined ? 'no conventional prefix' : `\`${commit.type}\``;
  return `From commit ${commit.hash} (${prefix}${commit.breaking ? ', breaking' : ''}).`;
}

function count(n: number, one: string, many: string): string {
  return `${n === 0 ? 'no' : n} ${n === 1 ? one : many}`;
}

function summaryOf(version: string, groups: CommitGroups): string {
  return `Release ${version}: ${count(groups.features.length, 'new feature', 'new features')}, ${count(groups.fixes.length, 'fix', 'fixes')} and ${count(groups.breaking.length, 'breaking change', 'breaking changes')}.`;
}

function markdownOf(version: string, groups: CommitGroups, requests: readonly string[]): string {
  const lines = [
    `# ${version}`,
    '',
    summaryOf(version, groups),
    '',
    `_Drafted by the ${OFFLINE_DRAFTER_LABEL}, from the commit messages._`,
  ];
  for (const [heading, commits] of [
    ['Breaking changes', groups.breaking],
    ['Highlights', groups.features],
    ['Fixes', groups.fixes],
    ['Other changes', groups.other],
  ] as const) {
    if (commits.length === 0) continue;
    lines.push('', `## ${heading}`);
    for (const commit of commits) lines.push(`- ${titleOf(commit)} (${commit.reference})`);
  }
  if (requests.length > 0) {
    lines.push('', "## Reviewer's request");
    for (const text of requests) lines.push(`- ${text.replace(/\s*\n\s*/g, ' ')}`);
    lines.push(
      '',
      `_The ${OFFLINE_DRAFTER_LABEL} cannot rewrite the notes as asked: the request is kept here, word for word, for the person who publishes them._`,
    );
  }
  return lines.join('\n');
}

function notesOf(version: string, groups: CommitGroups): ReleaseNotes {
  const item = (commit: Commit) => ({
    title: titleOf(commit),
    details: detailsOf(commit),
    references: [commit.reference],
  });
  return {
    version,
    summary: summaryOf(version, groups),
    highlights: groups.features.map(item),
    breaking_changes: groups.breaking.map(item),
    fixes: groups.fixes.map(item),
  };
}

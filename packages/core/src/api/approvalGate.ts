import type { AgentContext } from './agentContext.js';
import type { Tool } from './tool.js';

/**
 * Whether a call needs a person's approval (SPEC HITL-13): given the call's arguments, parsed
 * from the model's JSON (`undefined` when it sent none), and the agent's context. It is judged
 * once, before the call starts, and the verdict is recorded with the start.
 */
export type ApprovalCondition = (
  args: unknown,
  context: AgentContext,
) => boolean | Promise<boolean>;

/** How an approval gate decides which calls wait (SPEC HITL-13). */
export interface ApprovalOptions {
  /** Only calls for which it says `true` wait for a person; the others run at once. */
  readonly when?: ApprovalCondition;
}

/**
 * Marks a tool that runs its side effect only for a call that holds an approval: the start of
 * any other call of it need not survive a power loss (see `AppendOptions.durable`). The value is
 * the gate's options.
 */
export const runsOnlyWhenApproved = Symbol('agentlog.runsOnlyWhenApproved');

/** A tool marked as an approval gate, with its options. */
export type ApprovalGate = Tool & { readonly [runsOnlyWhenApproved]: ApprovalOptions };

/** Whether `tool` is marked {@link runsOnlyWhenApproved}. */
export function isApprovalGate(tool: Tool): boolean {
  return gateOptions(tool) !== undefined;
}

/** The condition of an approval gate, if it has one (SPEC HITL-13). */
export function approvalCondition(tool: Tool): ApprovalCondition | undefined {
  return gateOptions(tool)?.when;
}

/** The options of an approval gate, or `undefined` for any other tool. */
export function gateOptions(tool: Tool): ApprovalOptions | undefined {
  const options = (tool as Partial<ApprovalGate>)[runsOnlyWhenApproved];
  return typeof options === 'object' ? options : undefined;
}

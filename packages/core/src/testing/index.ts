// The testing entry of @agentlog/core: scripted model, fixed clock and ids, given/when/then.
export { scriptedModel, textResponse, toolCallResponse } from './scriptedModel.js';
export type { ScriptStep, ScriptedModel, ScriptedCall } from './scriptedModel.js';
export { fixedClock, counterIds } from './fixedClock.js';
export { given } from './given.js';
export type { Command, Then } from './given.js';
export { countInMemorySubscriptions } from '../store/inMemoryEventStore.js';
export { DeciderSpec } from './deciderSpec.js';
export type { DeciderThen, NextThen, ExpectedEvent, SpecSettings } from './deciderSpec.js';
// What a decider spec is given and asked, as the decider types it (docs/decider.md).
export type { Command as DeciderCommand } from '../decider/decideCommand.js';
export type { DeciderSettings } from '../decider/deciderSettings.js';
export type { NextStep } from '../decider/nextStep.js';
export type { Outcome } from '../decider/recordOutcome.js';
export type { RunCursor } from '../decider/runCursor.js';
export { partialMismatch } from './partialMatch.js';
export { startChatCompletionsServer } from './chatCompletionsServer.js';
export type { ChatCompletionsServer, ServedAnswer } from './chatCompletionsServer.js';

// The testing entry of @agentlog/core: scripted model, fixed clock and ids, given/when/then.
export { scriptedModel, textResponse, toolCallResponse } from './scriptedModel.js';
export type { ScriptStep, ScriptedModel, ScriptedCall } from './scriptedModel.js';
export { fixedClock, counterIds } from './fixedClock.js';
export { given } from './given.js';
export type { Command, Then } from './given.js';
export { countInMemorySubscriptions } from '../store/inMemoryEventStore.js';
export { DeciderSpec } from './deciderSpec.js';
export type { DeciderThen, NextThen, ExpectedEvent, SpecSettings } from './deciderSpec.js';
export { partialMismatch } from './partialMatch.js';
export { startChatCompletionsServer } from './chatCompletionsServer.js';
export type { ChatCompletionsServer, ServedAnswer } from './chatCompletionsServer.js';

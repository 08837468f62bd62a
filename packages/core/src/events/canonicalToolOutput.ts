import { toolOutputCheck } from './eventSchemas.js';
import type { ToolOutput } from '../messages/toolOutput.js';

/**
 * What is wrong with a value offered as a tool output, checked exactly as a stored event is
 * (SPEC EVT-6), or `undefined` when it is a valid output.
 */
export function toolOutputProblem(value: unknown): string | undefined {
  return toolOutputCheck(value, 'output');
}

/**
 * A valid output with its known keys only, as the stream records it: what a tool or hook added
 * beside them is not stored, so the live state and a state read back are the same.
 */
export function canonicalToolOutput(output: ToolOutput): ToolOutput {
  switch (output.kind) {
    case 'text':
    case 'fail':
      return Object.keys(output).length === 2 ? output : { kind: output.kind, text: output.text };
    case 'stop':
    case 'agentFailed':
    case 'feedbackRequired': {
      const { payload } = output;
      const plain = Object.keys(output).length === (payload === undefined ? 1 : 2);
      if (plain && !('payload' in output && payload === undefined)) return output;
      return payload === undefined ? { kind: output.kind } : { kind: output.kind, payload };
    }
  }
}

// LangGraph: a StateGraph (model node, ToolNode, toolsCondition) with a scripted chat model bound
// to a `ping` tool, N steps; run cold, then warm (a fresh model, tool and graph each time).
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { reportColdAndWarm, stepsFromArgv } from './childReport.mjs';

const steps = stepsFromArgv();

/** A chat model that asks for `ping` on each of the first `steps` turns, then answers "done". */
class ScriptedChatModel extends BaseChatModel {
  calls = 0;
  _llmType() {
    return 'bench-scripted';
  }
  bindTools() {
    return this;
  }
  async _generate() {
    this.calls += 1;
    const message =
      this.calls <= steps
        ? new AIMessage({
            content: '',
            tool_calls: [{ id: `call-${this.calls}`, name: 'ping', args: {}, type: 'tool_call' }],
          })
        : new AIMessage({ content: 'done' });
    return {
      generations: [{ text: typeof message.content === 'string' ? message.content : '', message }],
    };
  }
}

async function runOnce() {
  let pings = 0;
  const ping = tool(
    async () => {
      pings += 1;
      return 'pong';
    },
    { name: 'ping', description: 'Answers pong.', schema: z.object({}) },
  );
  const model = new ScriptedChatModel({}).bindTools([ping]);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async ({ messages }) => ({ messages: [await model.invoke(messages)] }))
    .addNode('tools', new ToolNode([ping]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();

  const start = performance.now();
  const result = await graph.invoke(
    { messages: [{ role: 'user', content: 'go' }] },
    { recursionLimit: 2 * steps + 10 },
  );
  const seconds = (performance.now() - start) / 1_000;
  return { seconds, toolCalls: pings, finalText: result.messages.at(-1)?.content };
}

await reportColdAndWarm(steps, runOnce);

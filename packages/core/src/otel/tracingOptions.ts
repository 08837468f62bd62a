/** How `withTracing` names what it traces; every field is optional. */
export interface TracingOptions {
  /** The agent's name: run spans are `invoke_agent <name>` with `gen_ai.agent.name`. */
  readonly agentName?: string;
  /**
   * The provider, as `gen_ai.provider.name` (and the older `gen_ai.system`): `openai`,
   * `anthropic`, ... Not set when not given: a gateway may serve any provider.
   */
  readonly provider?: string;
  /**
   * The requested model, as `gen_ai.request.model` and in the span name `chat <model>`. Default:
   * the model's own `model` field when it has one (the OpenAI adapter does).
   */
  readonly model?: string;
}

/** The row names of agentlog in memory, the peers and the floors, shared by every table. */
export const contenderNames = {
  memory: 'agentlog, in memory',
  aiSdk: 'AI SDK 7',
  openai: 'OpenAI Agents JS',
  langgraph: 'LangGraph',
  floor: 'floor: minimal event-sourced loop',
  floorChecked: 'floor with checks: ids, times, JSON, zod, SHA-256 (floorCheckedPing.ts)',
  floorJsonl: 'floor, JSONL file: one writeSync per event, no fsync',
} as const;

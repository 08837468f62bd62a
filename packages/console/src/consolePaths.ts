/** The path of a run's page (and, with a suffix, of its calls and audit). */
export const runPath = (streamId: string): string => `/runs/${encodeURIComponent(streamId)}`;

/** The path of a call's decide page. */
export const callPath = (streamId: string, toolCallId: string): string =>
  `${runPath(streamId)}/calls/${encodeURIComponent(toolCallId)}`;

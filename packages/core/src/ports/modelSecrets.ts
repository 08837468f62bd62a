import type { ChatCompletion } from './chatCompletion.js';

/**
 * The secrets a model was configured with (its `secrets()`), read at every call so a rotated key
 * is seen (SPEC RPL-3): only the strings of it; none when the model has no `secrets`.
 */
export function modelSecrets(model: ChatCompletion): () => readonly string[] {
  const { secrets } = model as { secrets?: () => readonly unknown[] };
  if (typeof secrets !== 'function') return () => noSecrets;
  return () =>
    (secrets.call(model) ?? []).filter((secret): secret is string => typeof secret === 'string');
}

const noSecrets: readonly string[] = Object.freeze([]);

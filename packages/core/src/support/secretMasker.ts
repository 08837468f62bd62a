/** What a masked secret becomes (SPEC RPL-3). */
export const REDACTED = '[redacted]';

/**
 * Configured values shorter than this are not masked by value: they cannot be real keys (a
 * placeholder such as `x` for a local gateway), and masking them would mangle ordinary text.
 */
export const MIN_SECRET_LENGTH = 8;

// Bearer tokens and OpenAI-style keys, whichever key a model was configured with.
const SECRET_PATTERNS = [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, /\bsk-[A-Za-z0-9_-]{8,}/g];

/**
 * A function that masks `secrets` (any shape, longest first), bearer tokens and `sk-` keys in a
 * text (SPEC RPL-3): the one masking rule of the adapter, the recorder and the CLI.
 */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) =>
    SECRET_PATTERNS.reduce(
      (masked, pattern) => masked.replace(pattern, REDACTED),
      values.reduce((masked, secret) => masked.split(secret).join(REDACTED), text),
    );
}

import type { CliIo } from './cliIo.js';

/** Wraps text in one ANSI style, or returns it unchanged when colours are off. */
export type Paint = (text: string) => string;

/** The styles the command uses; each is the identity when colours are off. */
export interface Painter {
  readonly enabled: boolean;
  readonly dim: Paint;
  readonly bold: Paint;
  readonly green: Paint;
  readonly red: Paint;
  readonly yellow: Paint;
  readonly cyan: Paint;
  readonly magenta: Paint;
}

const style =
  (enabled: boolean, open: number, close: number): Paint =>
  (text) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/**
 * Whether `io` gets colours, in this order (chalk's convention: FORCE_COLOR wins):
 * 1. `FORCE_COLOR` set to a non-empty value: off for `0` or `false`, else on, terminal or not;
 * 2. `NO_COLOR` set to a non-empty value (https://no-color.org): off;
 * 3. otherwise on only when standard output is a terminal.
 */
export function colourEnabled(io: Pick<CliIo, 'isTTY' | 'env'>): boolean {
  const force = io.env['FORCE_COLOR']?.trim().toLowerCase();
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  const noColor = io.env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return io.isTTY;
}

/** The styles for `io`, coloured when {@link colourEnabled} says so. */
export function createPainter(io: Pick<CliIo, 'isTTY' | 'env'>): Painter {
  const enabled = colourEnabled(io);
  return {
    enabled,
    dim: style(enabled, 2, 22),
    bold: style(enabled, 1, 22),
    green: style(enabled, 32, 39),
    red: style(enabled, 31, 39),
    yellow: style(enabled, 33, 39),
    cyan: style(enabled, 36, 39),
    magenta: style(enabled, 35, 39),
  };
}

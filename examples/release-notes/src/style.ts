/** Terminal styles: colour on a TTY only, and never when NO_COLOR is set. */
export interface Style {
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
}

const plain = (text: string) => text;

/** Styles for a stream: ANSI colours when it is a TTY and NO_COLOR is unset or empty. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const colour = stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  const ansi = (code: string) => (colour ? (text: string) => `\x1b[${code}m${text}\x1b[0m` : plain);
  return {
    dim: ansi('2'),
    bold: ansi('1'),
    green: ansi('32'),
    red: ansi('31'),
    yellow: ansi('33'),
  };
}

/** No colours at all, for tests and pipes. */
export const noStyle: Style = styleFor({ isTTY: false });

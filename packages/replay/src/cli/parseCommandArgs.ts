import { parseArgs } from 'node:util';
import { CliError } from './cliError.js';

/** The options and positional arguments a command accepts. */
export interface ArgsSpec {
  /** Options taking a value, such as `store` for `--store <where>`. */
  readonly strings?: readonly string[];
  /** Options without a value. `help` (`-h`, `--help`) is always accepted. */
  readonly flags?: readonly string[];
  /** Names of the required positional arguments, in order, for error messages. */
  readonly required?: readonly string[];
  /** How many positional arguments may follow the required ones. Default 0. */
  readonly optional?: number;
}

/** Parsed arguments: the positionals and typed access to the options. */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly help: boolean;
  string(name: string): string | undefined;
  flag(name: string): boolean;
}

/**
 * Parses a command's arguments with `node:util` `parseArgs` (strict): an unknown option, a
 * missing value, a missing or extra positional argument is a one-line `CliError` (exit 2).
 * With `--help` the positionals are not checked.
 */
export function parseCommandArgs(command: string, args: string[], spec: ArgsSpec): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const name of spec.strings ?? []) options[name] = { type: 'string' };
  for (const name of spec.flags ?? []) options[name] = { type: 'boolean' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(`${argsProblem(error)}; see agentlog ${command} --help`);
  }
  const { values, positionals } = parsed;
  const help = values['help'] === true;
  const required = spec.required ?? [];
  if (!help) {
    const missing = required[positionals.length];
    if (missing !== undefined)
      throw new CliError(`missing <${missing}>; see agentlog ${command} --help`);
    const extra = positionals[required.length + (spec.optional ?? 0)];
    if (extra !== undefined)
      throw new CliError(`unexpected argument '${extra}'; see agentlog ${command} --help`);
  }
  return {
    positionals,
    help,
    string: (name) => {
      const value = values[name];
      return typeof value === 'string' ? value : undefined;
    },
    flag: (name) => values[name] === true,
  };
}

function argsProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'([^']+)'/.exec(message ?? '')?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option ?? '?'}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return lowerFirst((message ?? 'invalid option value').split('\n')[0] ?? '');
    default:
      return lowerFirst((message ?? String(error)).split('\n')[0] ?? '');
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
}

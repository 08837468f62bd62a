import type { Command } from 'commander';

/** A command's parsed arguments: its positionals and typed access to its options. */
export interface ParsedArgs {
  /** The positional arguments, in order (a variadic argument's values included). */
  readonly positionals: readonly string[];
  /** The value of a `--name <value>` option, or its default; undefined when absent. */
  string(name: string): string | undefined;
  /** Whether a `--name` switch (an option without a value) was given. */
  flag(name: string): boolean;
}

/**
 * The arguments commander parsed for `command`. Asking for an option the command does not
 * declare is a programming error (it would always read undefined), so it throws.
 */
export function parsedArgsOf(command: Command): ParsedArgs {
  const declared = new Set(command.options.map((option) => option.attributeName()));
  const valueOf = (name: string): unknown => {
    if (!declared.has(name))
      throw new Error(`agentlog ${command.name()} declares no option --${name}`);
    return command.getOptionValue(name);
  };
  return {
    positionals: [...command.args],
    string: (name) => {
      const value = valueOf(name);
      return typeof value === 'string' ? value : undefined;
    },
    flag: (name) => valueOf(name) === true,
  };
}

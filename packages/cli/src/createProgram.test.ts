import { describe, expect, it } from 'vitest';
import { bufferedIo } from './bufferedIo.js';
import { commands } from './commands.js';
import { addCommands, createProgram } from './createProgram.js';
import { runCliIn } from './test/runCliIn.js';

async function cli(args: string[]) {
  return runCliIn(args);
}

// The commands as commander sees them: what the tests below check comes from the definitions.
const program = createProgram(bufferedIo().io, '0.0.0');
addCommands(program, commands, bufferedIo().io, () => undefined);
const defined = program.commands.map((command) => ({
  name: command.name(),
  options: command.options.map((option) => option.flags),
  optionNames: command.options.map((option) => option.long ?? ''),
  required: command.registeredArguments.filter((arg) => arg.required).map((arg) => arg.name()),
  accepts: command.registeredArguments.length,
  variadic: command.registeredArguments.some((arg) => arg.variadic),
  argumentNames: command.registeredArguments.map((arg) => arg.name()),
}));

describe('agentlog commands on commander', () => {
  it('defines every command, each with --store (and -h, --help from commander)', async () => {
    expect(defined.map(({ name }) => name)).toEqual(commands.map(({ name }) => name));
    for (const command of defined) {
      expect(command.options, command.name).toContain('--store <where>');
      expect((await cli([command.name, '-h'])).stdout).toMatch(lineStarting('-h, --help'));
    }
  });

  it.each(defined)('$name --help lists each of its options and arguments', async (command) => {
    for (const args of [
      [command.name, '--help'],
      ['help', command.name],
    ]) {
      const { code, stdout, stderr } = await cli(args);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const usage = stdout.split('\n')[0] ?? '';
      expect(usage).toMatch(new RegExp(`^Usage: agentlog ${command.name} \\[options\\]`));
      for (const flags of command.options) expect(stdout).toMatch(lineStarting(flags));
      for (const name of command.argumentNames) {
        expect(usage).toContain(name);
        expect(stdout).toMatch(lineStarting(name));
      }
    }
  });

  it.each(defined)('$name: an unknown option is one line with a hint, exit 2', async (command) => {
    expect(await cli([command.name, '--frobnicate'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `agentlog ${command.name}: unknown option '--frobnicate'; see agentlog ${command.name} --help\n`,
    });
  });

  it.each(defined)('$name: an option without its value is one line, exit 2', async (command) => {
    for (const [index, name] of command.optionNames.entries()) {
      // A switch (--help, report --force) takes no value, so it cannot miss one.
      if (!/[<[]/.test(command.options[index] ?? '')) continue;
      expect(await cli([command.name, name])).toEqual({
        code: 2,
        stdout: '',
        stderr: `agentlog ${command.name}: option '${command.options[index] ?? ''}' argument missing; see agentlog ${command.name} --help\n`,
      });
    }
  });

  const withRequired = defined.filter((command) => command.required.length > 0);
  it.each(withRequired)('$name: a missing argument names it, exit 2', async (command) => {
    expect(await cli([command.name])).toEqual({
      code: 2,
      stdout: '',
      stderr: `agentlog ${command.name}: missing <${command.required[0] ?? ''}>; see agentlog ${command.name} --help\n`,
    });
  });

  const bounded = defined.filter((command) => !command.variadic);
  it.each(bounded)('$name: an extra argument is named, exit 2', async (command) => {
    const args = [...Array.from({ length: command.accepts }, (_, i) => `arg${i}`), 'surplus'];
    expect(await cli([command.name, ...args])).toEqual({
      code: 2,
      stdout: '',
      stderr: `agentlog ${command.name}: unexpected argument 'surplus'; see agentlog ${command.name} --help\n`,
    });
  });

  it('--version and -V print the version with exit 0; help of an unknown command fails', async () => {
    expect(await cli(['-V'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    // Not alone on the line, --version is answered by commander's option: the same answer.
    expect(await cli(['--version', 'list'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(await cli(['list', '-V'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(await cli(['help'])).toMatchObject({ code: 0, stderr: '' });
    expect(await cli(['help', 'frobnicate'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "agentlog: unknown command 'frobnicate'; run agentlog --help\n",
    });
  });

  it('a misspelt option is still one line, with the suggestion', async () => {
    const { code, stderr } = await cli(['list', '--stor', 'x.db']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "agentlog list: unknown option '--stor' (Did you mean --store?); see agentlog list --help\n",
    );
  });
});

/** A help line: two spaces, then `term` and a space or the end of the line. */
function lineStarting(term: string): RegExp {
  return new RegExp(`^ {2}${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`, 'm');
}

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferedIo } from './bufferedIo.js';
import { colourEnabled, createPainter } from './painter.js';
import { runCli } from './runCli.js';

const session = join(
  import.meta.dirname,
  '../../../fixtures/sessions/STOP-2-stop-with-schema.jsonl',
);
const ansi = /\u001b\[\d+m/;

describe('colours', () => {
  it.each([
    // [env, isTTY, coloured]
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '3' }, false, true],
    [{ FORCE_COLOR: 'true' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: 'FALSE' }, true, false],
    [{ FORCE_COLOR: '' }, false, false],
    [{ FORCE_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0', NO_COLOR: '' }, true, false],
  ])('%o on a terminal: %s → coloured: %s', (env, isTTY, coloured) => {
    expect(colourEnabled({ env, isTTY })).toBe(coloured);
    expect(ansi.test(createPainter({ env, isTTY }).bold('x'))).toBe(coloured);
  });

  it('FORCE_COLOR colours agentlog inspect into a pipe; FORCE_COLOR=0 keeps a terminal plain', async () => {
    const forced = bufferedIo({ env: { FORCE_COLOR: '1' } });
    expect(await runCli(['inspect', session], forced.io)).toBe(0);
    expect(forced.stdout()).toMatch(ansi);
    const plain = bufferedIo({ env: {} });
    expect(await runCli(['inspect', session], plain.io)).toBe(0);
    expect(plain.stdout()).not.toMatch(ansi);
    const off = bufferedIo({ env: { FORCE_COLOR: '0' }, isTTY: true });
    expect(await runCli(['inspect', session], off.io)).toBe(0);
    expect(off.stdout()).not.toMatch(ansi);
    expect(off.stdout()).toBe(plain.stdout());
  });
});

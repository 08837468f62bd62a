import { describe, expect, it } from 'vitest';
import { styleFor } from './style.js';

describe('colour', () => {
  it('on a TTY only, and never with NO_COLOR', () => {
    expect(styleFor({ isTTY: true }, {}).green('ok')).toBe('\x1b[32mok\x1b[0m');
    expect(styleFor({ isTTY: false }, {}).green('ok')).toBe('ok');
    expect(styleFor({ isTTY: true }, { NO_COLOR: '1' }).green('ok')).toBe('ok');
    expect(styleFor({ isTTY: true }, { NO_COLOR: '' }).dim('ok')).toBe('\x1b[2mok\x1b[0m');
  });
});

import { describe, expect, it } from 'vitest';
import { diffLines } from './diffLines.js';
import { escapeHtml, joinHtml, markup, SafeHtml } from './html.js';

describe('the markup template', () => {
  it('escapes every interpolated text and number, in content and in attributes', () => {
    const hostile = `"><img src=x onerror=alert(1)><script>alert('x')</script>&`;
    expect(markup`<td title="${hostile}">${hostile}</td>`.toString()).toBe(
      '<td title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">' +
        '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</td>',
    );
    expect(markup`<b>${42}</b>`.toString()).toBe('<b>42</b>');
  });

  it('keeps fragments it built, joins lists, and renders false, null and undefined as nothing', () => {
    const cell = markup`<td>${'<a>'}</td>`;
    expect(markup`<tr>${cell}${[cell, '<b>']}</tr>`.toString()).toBe(
      '<tr><td>&lt;a&gt;</td><td>&lt;a&gt;</td>&lt;b&gt;</tr>',
    );
    expect(markup`[${false}${null}${undefined}]`.toString()).toBe('[]');
    expect(joinHtml(['a<', markup`<i>b</i>`], markup`<br>`).toString()).toBe('a&lt;<br><i>b</i>');
  });

  it('cannot be fooled by a look-alike fragment: only its own SafeHtml passes unescaped', () => {
    const forged = { toString: () => '<script>' } as unknown as string;
    expect(markup`${forged}`.toString()).toBe('&lt;script&gt;');
    expect(() => new SafeHtml('<script>', Symbol('SafeHtml'))).toThrow(TypeError);
  });

  it('escapes like escapeHtml', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});

describe('diffLines', () => {
  it('keeps common lines and marks removed then added ones', () => {
    expect(diffLines('# Notes\n- a\n- b\nend', '# Notes\n- a\n- c\n- d\nend')).toEqual([
      { kind: 'same', text: '# Notes' },
      { kind: 'same', text: '- a' },
      { kind: 'removed', text: '- b' },
      { kind: 'added', text: '- c' },
      { kind: 'added', text: '- d' },
      { kind: 'same', text: 'end' },
    ]);
  });

  it('handles empty and identical texts', () => {
    expect(diffLines('a', 'a')).toEqual([{ kind: 'same', text: 'a' }]);
    expect(diffLines('', 'x')).toEqual([
      { kind: 'removed', text: '' },
      { kind: 'added', text: 'x' },
    ]);
  });
});

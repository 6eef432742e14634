// The one function every line for people passes through: control sequences out, text kept.
import { describe, expect, it } from 'vitest';
import { inert, inertSink, jsonText, rawSink } from '../../src/output/inert.js';
import { makeStyle } from '../../src/output/style.js';

const E = '\x1b';
const cases: [string, string, string][] = [
  ['OSC 52 clipboard write (BEL)', `a${E}]52;c;ZXZpbA==\x07b`, 'ab'],
  ['OSC 52 clipboard write (ST)', `a${E}]52;c;ZXZpbA==${E}\\b`, 'ab'],
  ['OSC 8 link around text', `${E}]8;;https://evil.example/\x07click${E}]8;;\x07`, 'click'],
  ['OSC 0 / 2 title', `${E}]0;pwned\x07${E}]2;x${E}\\ok`, 'ok'],
  ['an OSC cut off at the end takes its payload with it', `ok${E}]52;c;ZXZp`, 'ok'],
  ['CSI clear screen and cursor home', `${E}[2J${E}[1;1Hx`, 'x'],
  ['CSI cursor up / erase line', `a${E}[3A${E}[2Kb`, 'ab'],
  ['private CSI (hide cursor)', `${E}[?25lx${E}[?25h`, 'x'],
  ['SGR conceal and black', `${E}[8mhidden${E}[0m ${E}[30;40mdark${E}[39;49m`, 'hidden dark'],
  ['DCS, SOS, PM, APC strings', `${E}Pq#0${E}\\a${E}Xs${E}\\b${E}^p${E}\\c${E}_a${E}\\d`, 'abcd'],
  ['two-byte escapes (reset, charset, save cursor)', `${E}c${E}(0${E}7x`, 'x'],
  ['C1 CSI and OSC (8-bit)', `a\u009b2Jb\u009d0;t\u0007c\u009c`, 'abc'],
  ['bidi overrides and isolates', `x\u202eevil\u202c\u2066y\u2069`, 'xevily'],
  ['backspace, bell, form feed, vertical tab, DEL', 'a\bb\x07c\fd\ve\x7f', 'abcde'],
  ['lone CR (overwrites the line) out, CRLF kept', 'safe\rhidden\r\nnext', 'safehidden\r\nnext'],
  ['a lone ESC at the end', `x${E}`, 'x'],
  ['tabs, newlines, CJK, emoji and marks kept', '查询\t天气\n🌤 \u200f', '查询\t天气\n🌤 \u200f'],
];

describe('inert', () => {
  it.each(cases)('%s', (_, input, want) => {
    expect(inert(input)).toBe(want);
  });

  it('returns text without controls as it is', () => {
    const s = 'plain text 中文 ✓';
    expect(inert(s)).toBe(s);
  });

  it("keeps toolbox's own colours only when colour is on, and no other SGR", () => {
    const st = makeStyle(true);
    const own = `${st.bold(st.red('error'))} ${st.dim('x')} ${st.underline(st.cyan('y'))}`;
    expect(inert(own, { colour: true })).toBe(own);
    expect(inert(own)).toBe('error x y');
    expect(inert(`${E}[8mz${E}[28m${E}[5mw`, { colour: true })).toBe('zw');
    expect(inert(`\u009b31mq`, { colour: true })).toBe('q');
  });
});

describe('jsonText', () => {
  const value = { text: cases.map(([, input]) => input).join('|'), n: [1, '\u0085\u2028'] };
  it('is exact: parses back to the same value', () => {
    expect(JSON.parse(jsonText(value, 2))).toEqual(value);
  });
  it('has nothing left for inert to remove', () => {
    const t = jsonText(value);
    expect(inert(t)).toBe(t);
    expect(t).toContain('\\u009b');
    expect(t).toContain('\\u202e');
    expect(t).toContain('\\u007f');
  });
  it('is JSON.stringify when nothing needs escaping', () => {
    expect(jsonText({ a: 'b', c: [1, 2] }, 2)).toBe(JSON.stringify({ a: 'b', c: [1, 2] }, null, 2));
  });
});

describe('inertSink', () => {
  it('cleans every write and keeps the terminal facts of the sink under it', () => {
    let out = '';
    const raw = { write: (s: string) => (out += s), isTTY: true, columns: 80 };
    const sink = inertSink(raw, false);
    sink.write(`${E}]0;t\x07hi\n`);
    expect(out).toBe('hi\n');
    expect(sink.isTTY).toBe(true);
    expect(sink.columns).toBe(80);
    expect(rawSink(sink)).toBe(raw);
    expect(rawSink(raw)).toBe(raw);
  });
});

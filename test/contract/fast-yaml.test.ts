import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fastParseYaml, flow, hasRefusedChar, plainScalar, quoted } from '../../src/contract/fast-yaml.js';
import { parseYamlSource, readYamlSource } from '../../src/contract/yaml-source.js';
// @ts-expect-error: a plain .mjs helper of the benches, without types
import { generateRegistry } from '../../bench/gen-registry.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

/** What `yaml` (as the contract parser uses it) makes of `text`: its value, or undefined on any error. */
function reference(text: string): { value: unknown } | undefined {
  const src = parseYamlSource(text);
  return src.errors.length ? undefined : { value: src.value };
}

/** The fast parser either refuses or agrees with `yaml` exactly. Returns whether it accepted. */
function agrees(text: string): boolean {
  const fast = fastParseYaml(text);
  if (!fast) return false;
  const ref = reference(text);
  expect(ref, `yaml refuses what the fast parser accepted:\n${text}`).toBeDefined();
  expect(fast.value, text).toStrictEqual(ref!.value);
  return true;
}

const corpus = ['tool_registry', 'templates', 'test/fixtures'].flatMap((d) => yamlFiles(join(ROOT, d)));
const texts = corpus.map((f) => readFileSync(f, 'utf8'));

describe('fastParseYaml equals yaml.parse or refuses', () => {
  it('on every contract, template and fixture of the repository', () => {
    const accepted = texts.filter(agrees).length;
    // The shipped registry is in the subset: most files must take the fast path.
    expect(accepted).toBeGreaterThan(texts.length / 2);
    for (const f of yamlFiles(join(ROOT, 'tool_registry')).filter((f) => !/base64|hash_text/.test(f)))
      expect(fastParseYaml(readFileSync(f, 'utf8')), f).toBeDefined();
  });

  const gen = mkdtempSync(join(tmpdir(), 'toolbox-fast-yaml-'));
  afterAll(() => rmSync(gen, { recursive: true, force: true }));
  it('on generated registries (every file accepted)', () => {
    generateRegistry(gen, 400, { seed: 7 });
    const files = yamlFiles(gen);
    expect(files).toHaveLength(400);
    for (const f of files) expect(agrees(readFileSync(f, 'utf8')), f).toBe(true);
  });

  it('on thousands of fuzzed (mutated, hostile) documents', () => {
    let s = 12345;
    const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const snippets = [
      ...'-?:,[]{}#&*!|>\'"%@`\t\r\\ ~',
      ': ',
      ' #',
      '- ',
      '&a ',
      '*a',
      '!!str ',
      '<<: ',
      '---\n',
      '...\n',
      '? ',
      '\ufeff',
      '\u2028',
      '\x85',
      'yes',
      'no',
      'on',
      'Null',
      'TRUE',
      '~',
      '0o17',
      '0x1F',
      '.inf',
      '-.Inf',
      '.NaN',
      '1e3',
      '+1',
      '007',
      '-0',
      '1_000',
      '2024-05-01',
      '12:30:00',
      '1.0.0',
      '|+',
      '|2',
      '>-',
      '\n\n',
      '  ',
      '\\x41',
      '\\U0001F600',
      '\\ud83d',
      "''",
      '__proto__',
      'a: b',
      '[a, b, ]',
      '{a}',
      '{a: }',
    ];
    const mutate = (t: string): string => {
      const lines = t.split('\n');
      const li = Math.floor(rand() * lines.length);
      const line = lines[li]!;
      const at = Math.floor(rand() * (line.length + 1));
      switch (Math.floor(rand() * 7)) {
        case 0:
          lines[li] = line.slice(0, at) + pick(snippets) + line.slice(at);
          break;
        case 1:
          lines[li] = line.slice(0, at) + line.slice(at + 1);
          break;
        case 2:
          lines.splice(li, 0, line);
          break;
        case 3:
          lines[li] = ' '.repeat(Math.floor(rand() * 3)) + line.slice(Math.floor(rand() * 3));
          break;
        case 4:
          lines.splice(li, 1, pick(lines));
          break;
        case 5:
          lines[li] = line.slice(0, at) + pick(snippets) + line.slice(at + 1);
          break;
        default:
          lines.splice(li, 0, pick(lines).replace(/^\s*/, ' '.repeat(Math.floor(rand() * 8))));
      }
      return lines.join('\n');
    };
    const base = [
      ...texts,
      ...yamlFiles(gen)
        .slice(0, 20)
        .map((f) => readFileSync(f, 'utf8')),
    ];
    let accepted = 0;
    let refused = 0;
    for (let n = 0; n < Number(process.env.FAST_YAML_FUZZ ?? 5000); n++) {
      let t = pick(base);
      for (let k = rand() < 0.7 ? 1 : 3; k > 0; k--) t = mutate(t);
      if (agrees(t)) accepted++;
      else refused++;
    }
    // Both ways must be exercised for the comparison to mean something.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});

describe('fastParseYaml on the shapes it takes', () => {
  const ok: [string, unknown][] = [
    [
      'a: 1\nb: -2.5\nc: 0\nd: true\ne: false\nf: null\ng: ~\nh:\n',
      { a: 1, b: -2.5, c: 0, d: true, e: false, f: null, g: null, h: null },
    ],
    [
      'v: 1.0.0\nw: 2024-05-01\nx: yes\ny: on\nz: 12:30',
      { v: '1.0.0', w: '2024-05-01', x: 'yes', y: 'on', z: '12:30' },
    ],
    ["a: plain text # comment\nb: a#b\nc: it's", { a: 'plain text', b: 'a#b', c: "it's" }],
    ['a: "q \\"x\\" \\\\ \\n \\u00e9 \\/"\nb: \'it\'\'s\'  # c', { a: 'q "x" \\ \n é /', b: "it's" }],
    ['a:\n  b:\n    c: 1\n  d: [x, "y", 2, {e: f}]\n', { a: { b: { c: 1 }, d: ['x', 'y', 2, { e: 'f' }] } }],
    ['a:\n- x\n- y: 1\n  z: 2\n-\n  - 3\nb: []\nc: {}', { a: ['x', { y: 1, z: 2 }, [3]], b: [], c: {} }],
    ['a: |\n  one\n    two\n\n  three\n\nb: 1', { a: 'one\n  two\n\nthree\n', b: 1 }],
    ['a: |-\n  one\n  two\nb: >\n  x\n  y\n\n  z\nc: >-\n  p\n  q\n', { a: 'one\ntwo', b: 'x y\nz\n', c: 'p q' }],
    [
      '"$ref": "#/x"\n\'k\': v\n$id: w\nargv: [base64, -w, \'0\']',
      { $ref: '#/x', k: 'v', $id: 'w', argv: ['base64', '-w', '0'] },
    ],
    ['# lead\n\na: 1   \n  # indented comment\nb:\n  # c\n  c: 2\n', { a: 1, b: { c: 2 } }],
    ['a: 中文 描述\nb: [邮件, x y]', { a: '中文 描述', b: ['邮件', 'x y'] }],
  ];
  it.each(ok)('parses %j', (text, want) => {
    expect(fastParseYaml(text)?.value).toStrictEqual(want);
    expect(reference(text)?.value).toStrictEqual(want);
  });

  const refused = [
    'a: &x 1\nb: *x',
    'a: !!str 1',
    'b: {x: 1}\n<<: *b',
    'a: 1\n---\nb: 2',
    '---\na: 1',
    '%YAML 1.2\n---\na: 1',
    '? a\n: 1',
    'a:\tb',
    'a: 1\r\nb: 2',
    '\ufeffa: 1',
    'a: 1\na: 2',
    'a: 1\n"a": 2',
    'a: 0o17',
    'a: 0x1F',
    'a: .inf',
    'a: -.Inf',
    'a: .nan',
    'a: 1e3',
    'a: +1',
    'a: 007',
    'a: -0',
    'a: 12345678901234567890',
    'a: Null',
    'a: TRUE',
    'a: |+\n  x\n',
    'a: |2\n  x\n',
    'a: | # c\n  x\n',
    'a: |\n\n  x\n',
    'a: |\nb: 1',
    'a: >\n  x\n    y\n',
    'a: |\n  x\n   \n  y',
    'a: long\n  continued',
    'a: "two\n  lines"',
    "a: 'open",
    'a: "x" y',
    'a: [x, y',
    'a: [x, ]',
    'a: [x, , y]',
    'a: {x}',
    'a: {x: }',
    'a: {x:1}',
    'a: [a: b]',
    'a: [x#y]',
    'a: {x: 1, x: 2}',
    'a: "\\x41"',
    'a: "\\U0001F600"',
    'a: "x\\',
    'a: b: c',
    'a: b:',
    'a: - x',
    'a: -',
    'a: @x',
    'a: `x`',
    'a: %x',
    '__proto__: 1',
    'x:\n  constructor: 1',
    'a: {prototype: 1}',
    'null: 1',
    'True: 1',
    '200: ok',
    'my key: 1',
    'a : 1',
    'a:b',
    '- a\n- b',
    ' a: 1',
    'a: 1\n b: 2',
    'a:\n  b: 1\n c: 2',
    'a:\n  - x\n  b: 1',
    'a:\n- x\n - y',
    'a:\n  b: 1\n    c: 2',
    'a: 1\n\u2028',
    'a: \x85',
    'a: \x01',
    'k' + 'x'.repeat(201) + ': 1',
    '',
    '# only a comment',
  ];
  it.each(refused)('refuses %j', (text) => {
    expect(fastParseYaml(text)).toBeUndefined();
  });

  it('refuses exactly the characters it leaves to yaml', () => {
    const refusedCodes = [0x00, 0x09, 0x0b, 0x0d, 0x1f, 0x7f, 0x85, 0x9f, 0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff];
    // and what JavaScript's trim() removes but YAML keeps: no-break, Ogham, en/em..hair, narrow, math, ideographic
    refusedCodes.push(0xa0, 0x1680, 0x2000, 0x2003, 0x200a, 0x202f, 0x205f, 0x3000);
    for (const c of refusedCodes) expect(hasRefusedChar(`ab${String.fromCharCode(c)}`), c.toString(16)).toBe(true);
    const fine = [0x0a, 0x20, 0x7e, 0xa1, 0xe9, 0x4e2d, 0x1fff, 0x200b, 0x2027, 0x202a, 0x2060, 0x3001, 0xfefe, 0xfffd];
    expect(hasRefusedChar(fine.map((c) => String.fromCharCode(c)).join(''))).toBe(false);
  });

  it('keeps every Unicode space yaml keeps (found by review: trim() dropped them)', () => {
    const cases = [
      'a: b\u00a0',
      'a: \u00a0b',
      'a: [x\u3000]',
      'a: \u2003',
      'a: \u00a0# x',
      'a: "x"\u205f',
      'a: 1\n\u00a0\nb: 2',
    ];
    for (const text of cases) {
      expect(fastParseYaml(text), JSON.stringify(text)).toBeUndefined();
      const slow = parseYamlSource(text);
      const r = readYamlSource(text);
      expect(r.errors.map((e) => e.code)).toEqual(slow.errors.map((e) => e.code));
      if (!slow.errors.length) expect(r.value).toEqual(slow.value);
    }
    expect(readYamlSource('a: b\u00a0').value).toEqual({ a: 'b\u00a0' });
  });

  it("never fails a file itself: 20,000 nested brackets are yaml's to report, at a line", () => {
    const deep = `id: deep\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    expect(fastParseYaml(deep)).toBeUndefined();
    const r = readYamlSource(deep);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0]!.pos.line).toBeGreaterThanOrEqual(1);
  });

  it('records the line of every key of the root mapping, and only those', () => {
    const r = fastParseYaml('# c\nid: x\n\nschema:\n  type: object\nname: "n"\n')!;
    expect([...r.keyLines]).toEqual([
      ['id', 2],
      ['schema', 4],
      ['name', 6],
    ]);
  });

  it('exposes its scalar helpers with exact results', () => {
    expect(plainScalar('-5')).toBe(-5);
    expect(plainScalar('--json')).toBe('--json');
    expect(plainScalar('0.25')).toBe(0.25);
    expect(() => plainScalar('')).toThrow();
    expect(() => plainScalar('-')).toThrow();
    expect(() => plainScalar('-.5')).toThrow();
    expect(quoted('x"ab"c', 1)).toEqual(['ab', 5]);
    expect(quoted("'a''b' rest", 0)).toEqual(["a'b", 6]);
    expect(quoted('"\\t\\r\\b\\f\\0"', 0)).toEqual(['\t\r\b\f\0', 12]);
    expect(flow('[a, [b], {c: d}] # x', 0)).toEqual([['a', ['b'], { c: 'd' }], 16]);
    expect(flow('{ "k": 1 }', 0)).toEqual([{ k: 1 }, 10]);
  });
});

describe('readYamlSource', () => {
  it('locates like the positional parser, on every file the fast parser takes', () => {
    let checked = 0;
    for (const text of texts) {
      if (!fastParseYaml(text)) continue;
      const fast = readYamlSource(text);
      const slow = parseYamlSource(text);
      expect(fast.errors).toEqual([]);
      const paths: (string | number)[][] = [[], ['missing'], ['schema', 'properties'], ['examples', 0], ['nope', 'x']];
      for (const k of Object.keys(slow.value as object)) paths.push([k]);
      for (const p of paths) expect(fast.locate(p), `${p.join('.')} in\n${text}`).toEqual(slow.locate(p));
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('falls back to yaml (with its errors) outside the subset', () => {
    const r = readYamlSource('a: &x 1\nb: *x\n');
    expect(r.value).toEqual({ a: 1, b: 1 });
    expect(readYamlSource('a: [unclosed\n').errors[0]!.code).toBeTruthy();
  });
});

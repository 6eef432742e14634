import { describe, expect, it } from 'vitest';
import { parseContract } from '../../src/contract/parse.js';
import { REFERENCE_CONTRACT } from '../helpers.js';

const enc = (s: string) => new TextEncoder().encode(s);
const rules = (s: string | Uint8Array) =>
  parseContract('/r/t.yaml', typeof s === 'string' ? enc(s) : s).diagnostics.map((d) => d.rule);

describe('parseContract', () => {
  it('accepts the reference contract unchanged', () => {
    const p = parseContract('/r/query_weather.yaml', enc(REFERENCE_CONTRACT));
    expect(p.diagnostics).toEqual([]);
    expect(p.contract?.id).toBe('query_weather');
  });

  it('locates YAML syntax errors by line and column', () => {
    const p = parseContract('/r/t.yaml', enc('id: a\nname: [unclosed\n'));
    expect(p.diagnostics[0]).toMatchObject({ rule: 'yaml-syntax', severity: 'error' });
    expect(p.diagnostics[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('turns every kind of hostile file into a diagnostic', () => {
    expect(rules('')).toEqual(['empty-file']);
    expect(rules(new Uint8Array([0x69, 0x64, 0x00, 0x01]))).toEqual(['binary-file']);
    expect(rules(new Uint8Array([0x69, 0x64, 0x3a, 0x20, 0xff, 0xfe, 0x0a]))).toEqual(['encoding']);
    expect(rules('x'.repeat(2 * 1024 * 1024))).toEqual(['file-too-large']);
    const bomb =
      'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
    expect(rules(bomb)).toContain('yaml-syntax');
    expect(rules(REFERENCE_CONTRACT + '__proto__: {polluted: true}\n')).toEqual(['unsafe-key']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports an encoding error at the line of the bad byte', () => {
    const p = parseContract('/r/t.yaml', new Uint8Array([...enc('id: a\nname: '), 0xc3, 0x28, 0x0a]));
    expect(p.diagnostics[0]).toMatchObject({ rule: 'encoding', line: 2, column: 7 });
  });

  it('rejects remote $ref without fetching it', () => {
    const text = REFERENCE_CONTRACT.replace('      type: string\n', '      $ref: "https://example.com/city.json"\n');
    const p = parseContract('/r/t.yaml', enc(text));
    expect(p.diagnostics.map((d) => d.rule)).toEqual(['remote-ref']);
    expect(p.diagnostics[0]!.line).toBe(8);
  });

  it('flags an invalid JSON Schema and a bad loader_config with locations', () => {
    const bad = REFERENCE_CONTRACT.replace('      type: string\n', '      type: strng\n');
    const d = parseContract('/r/t.yaml', enc(bad)).diagnostics;
    expect(d[0]).toMatchObject({ rule: 'invalid-json-schema', line: 8 });
    const noFn = REFERENCE_CONTRACT.replace('  function: get_weather_by_city\n', '');
    const d2 = parseContract('/r/t.yaml', enc(noFn)).diagnostics;
    expect(d2[0]).toMatchObject({ rule: 'contract-schema', path: 'loader_config' });
    expect(d2[0]!.message).toContain("'function'");
  });

  it('accepts draft 2020-12 schemas', () => {
    const t = REFERENCE_CONTRACT.replace(
      '  type: object\n',
      '  $schema: https://json-schema.org/draft/2020-12/schema\n  type: object\n  $defs: {c: {type: string}}\n',
    );
    expect(rules(t)).toEqual([]);
  });

  it('refuses what a schema compile would refuse, without compiling: a dangling local $ref, a bad regex', () => {
    const ref = REFERENCE_CONTRACT.replace('      type: string\n', "      $ref: '#/$defs/missing'\n");
    const d = parseContract('/r/t.yaml', enc(ref)).diagnostics;
    expect(d[0]).toMatchObject({ rule: 'invalid-json-schema', line: 8 });
    const re = REFERENCE_CONTRACT.replace('      type: string\n', "      type: string\n      pattern: '(unclosed'\n");
    expect(rules(re)).toEqual(['invalid-json-schema']);
    const ok = REFERENCE_CONTRACT.replace('  type: object\n', '  type: object\n  $defs: {c: {type: string}}\n').replace(
      '      type: string\n',
      "      $ref: '#/$defs/c'\n",
    );
    expect(rules(ok)).toEqual([]);
  });
});

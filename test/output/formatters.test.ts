import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { formatters, FORMATS, type FormatInput } from '../../src/output/formatters/index.js';
import { escapeData, escapeProperty } from '../../src/output/formatters/github.js';
import type { Diagnostic } from '../../src/contract/diagnostic.js';
import { STRUCTURAL_RULES } from '../../src/lint/structural.js';
import { loadRules } from '../../src/lint/rules/index.js';

const d = (o: Partial<Diagnostic>): Diagnostic => ({
  file: '/proj/tool_registry/a.yaml',
  line: 3,
  column: 1,
  severity: 'error',
  rule: 'description-vague',
  message: 'm',
  ...o,
});

async function input(diagnostics: Diagnostic[], color = false): Promise<FormatInput> {
  const rules = [...STRUCTURAL_RULES, ...(await loadRules()).map((r) => r.meta)];
  const count = (s: string) => diagnostics.filter((x) => x.severity === s).length;
  return {
    diagnostics,
    rules,
    cwd: '/proj',
    version: '1.2.3',
    style: new Chalk({ level: color ? 1 : 0 }),
    summary: { files: 3, tools: 2, errors: count('error'), warnings: count('warning'), infos: count('info') },
  };
}

describe('validate formatters', () => {
  it('has a formatter for every format', () => {
    expect(Object.keys(formatters).sort()).toEqual([...FORMATS].sort());
  });

  it('stylish groups by file, shows paths relative to cwd and ends with a count', async () => {
    const out = formatters.human(
      await input([
        d({ line: 3, message: 'vague' }),
        d({ line: 9, severity: 'warning', rule: 'param-type', message: 'no type', hint: 'add type' }),
        d({ file: '/proj/tool_registry/b.yaml', severity: 'info', rule: 'x', message: 'fyi' }),
      ]),
    );
    const lines = out.split('\n');
    expect(lines[0]).toBe('tool_registry/a.yaml');
    expect(out.indexOf('tool_registry/b.yaml')).toBeGreaterThan(out.indexOf('no type'));
    expect(out).toMatch(/3:1\s+error\s+vague\s+description-vague/);
    expect(out).toContain('→ add type');
    expect(lines.filter(Boolean).pop()).toMatch(/3 problems \(1 error, 1 warning, 1 info\) in 2 files/);
    expect(out).not.toContain('\u001b[');
  });

  it('stylish colours only when the style has colour', async () => {
    expect(formatters.human(await input([d({})], true))).toContain('\u001b[');
  });

  it('stylish says so when there is nothing', async () => {
    expect(formatters.human(await input([]))).toMatch(/3 files, 2 valid tools: no problems/);
  });

  it('json has the documented shape', async () => {
    const out = JSON.parse(formatters.json(await input([d({ path: 'description' })])));
    expect(out.diagnostics[0]).toEqual({
      file: '/proj/tool_registry/a.yaml',
      line: 3,
      column: 1,
      severity: 'error',
      rule: 'description-vague',
      message: 'm',
      path: 'description',
    });
    expect(out.summary).toEqual({ files: 3, tools: 2, errors: 1, warnings: 0, infos: 0 });
  });

  it('github escapes data and properties', async () => {
    expect(escapeData('100% a\r\nb')).toBe('100%25 a%0D%0Ab');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
    const out = formatters.github(
      await input([
        d({ file: '/proj/reg/we,ird:name.yaml', line: 4, column: 7, message: '50% alike\nsecond line' }),
        d({ severity: 'warning', rule: 'param-type' }),
        d({ severity: 'info', rule: 'x' }),
      ]),
    );
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '::error file=reg/we%2Cird%3Aname.yaml,line=4,col=7,title=description-vague::50%25 alike%0Asecond line',
    );
    expect(lines[1]).toMatch(/^::warning /);
    expect(lines[2]).toMatch(/^::notice /);
  });

  it('sarif is SARIF 2.1.0 with rule metadata and relative locations', async () => {
    const out = JSON.parse(
      formatters.sarif(
        await input([
          d({ severity: 'warning', rule: 'param-type', line: 8, column: 5 }),
          d({ file: '/elsewhere/x.yaml', severity: 'info', rule: 'routing' }),
        ]),
      ),
    );
    expect(out.version).toBe('2.1.0');
    expect(out.$schema).toMatch(/sarif-2\.1\.0/);
    const run = out.runs[0];
    expect(run.tool.driver).toMatchObject({ name: 'toolbox', version: '1.2.3' });
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['description-vague', 'param-type', 'yaml-syntax', 'duplicate-id']));
    const r0 = run.results[0];
    expect(r0).toMatchObject({ ruleId: 'param-type', level: 'warning' });
    expect(run.tool.driver.rules[r0.ruleIndex].id).toBe('param-type');
    expect(r0.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'tool_registry/a.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 8, startColumn: 5 },
    });
    expect(run.results[1].level).toBe('note');
    expect(run.results[1].locations[0].physicalLocation.artifactLocation.uri).toBe('file:///elsewhere/x.yaml');
  });
});

describe('colour on a terminal', () => {
  it('uses chalk when colour is on, and plain text (no chalk) when it is off', async () => {
    const { chalkStyle, makeStyle } = await import('../../src/output/style.js');
    const styled = (await chalkStyle()).red('x');
    expect(styled).toMatch(/^\u001b\[31mx\u001b\[39m$/);
    expect(makeStyle(false).red('x')).toBe('x');
  });
});

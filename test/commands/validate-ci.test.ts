// validate as pre-commit and CI use it (ESLint habits): files…, --quiet, --max-warnings, ignore
// globs and per-glob overrides in the config, inline disables in YAML comments (unused ones reported).
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';

const GOOD =
  'Look up the opening hours of a shop by its name and city. Use it when the user asks whether a shop is open.';
const tool = (id: string, description: string, extra = '') => `id: ${id}
name: ${id}
description: ${JSON.stringify(description)}
schema: { type: object, properties: { q: { type: string, description: The shop's name and city. } }, required: [q] }
loader: command
loader_config: { argv: [echo, "{{q}}"] }
${extra}`;
// One warning (never says when to use it) and one error (vague).
const NO_WHEN = 'Returns the opening hours of a shop, from its name and city, as a list of days and times.';
const VAGUE = 'Handles files.';

let p: ReturnType<typeof tempProject>;
afterEach(() => p.cleanup());
type D = { rule: string; severity: string; file: string; line: number };
const rules = (r: { json: { diagnostics: D[] } }) =>
  r.json.diagnostics.map((d) => `${d.file.replace(/^.*tool_registry\//, '')}:${d.rule}`).sort();

describe('validate for pre-commit and CI', () => {
  it('files…: reports only on the given files, still checks duplicates against the rest', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('a_tool', VAGUE),
      'tool_registry/b.yaml': tool('b_tool', GOOD),
      'tool_registry/c.yaml': tool('b_tool', GOOD.replace('shop', 'store')),
    });
    const r = await cli(['validate', 'tool_registry/c.yaml', '--json', '--no-routing'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(rules(r)).toEqual(['c.yaml:duplicate-id']);
    expect(r.json.summary.files).toBe(1);
    const clean = await cli(['validate', 'tool_registry/b.yaml', '--json', '--no-routing'], { cwd: p.dir });
    expect(clean.code).toBe(0);
    // It counts what it checked (one file, one tool), and says the rest was only read.
    expect(clean.json.summary).toMatchObject({ files: 1, tools: 1, registry: { files: 3, tools: 2 } });
    const human = await cli(['validate', 'tool_registry/b.yaml', '--no-routing'], { cwd: p.dir });
    expect(human.stdout).toMatch(/1 file, 1 valid tool: no problems; 2 other registry files read for duplicate ids/);
    expect((await cli(['validate', '--json', '--no-routing'], { cwd: p.dir })).json.summary.registry).toBeUndefined();
    const bad = await cli(['validate', 'README.md', '--json'], { cwd: p.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('not_a_contract');
  });

  it('--quiet reports errors only; --max-warnings N fails above N warnings', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('a_tool', NO_WHEN),
      'tool_registry/b.yaml': tool('b_tool', GOOD),
    });
    const all = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    expect(all.code).toBe(0);
    expect(all.json.summary.warnings).toBe(1);
    const quiet = await cli(['validate', '--json', '--no-routing', '--quiet'], { cwd: p.dir });
    expect(quiet.json.diagnostics).toEqual([]);
    expect((await cli(['validate', '--no-routing', '--max-warnings', '1'], { cwd: p.dir })).code).toBe(0);
    const over = await cli(['validate', '--no-routing', '--max-warnings', '0'], { cwd: p.dir });
    expect(over.code).toBe(1);
    expect((await cli(['validate', '--quiet', '--no-routing', '--max-warnings', '0'], { cwd: p.dir })).code).toBe(1);
    const badN = await cli(['validate', '--max-warnings', 'lots', '--json'], { cwd: p.dir });
    expect(badN.code).toBe(2);
    expect(badN.errorJson.error.code).toBe('invalid_max_warnings');
  });

  it('lint.ignore skips files; lint.overrides sets severities per glob (and can turn an off rule on)', async () => {
    p = tempProject({
      'toolbox.config.yaml': `registry: tool_registry
lint:
  rules: { description-when-to-use: off }
  ignore: ["drafts/**"]
  overrides:
    - files: ["imported/**"]
      rules: { description-vague: warning }
    - files: ["strict_*.yaml"]
      rules: { description-when-to-use: error }
`,
      'tool_registry/drafts/x.yaml': tool('x_tool', VAGUE),
      'tool_registry/imported/y.yaml': tool('y_tool', VAGUE),
      'tool_registry/strict_z.yaml': tool('z_tool', NO_WHEN),
      'tool_registry/loose.yaml': tool('w_tool', NO_WHEN + ' Also for hours.'),
    });
    const r = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    const ds = r.json.diagnostics as D[];
    expect(ds.some((d) => d.file.includes('drafts'))).toBe(false);
    expect(ds.find((d) => d.file.endsWith('y.yaml') && d.rule === 'description-vague')?.severity).toBe('warning');
    expect(ds.find((d) => d.file.endsWith('strict_z.yaml') && d.rule === 'description-when-to-use')?.severity).toBe(
      'error',
    );
    expect(ds.some((d) => d.file.endsWith('loose.yaml') && d.rule === 'description-when-to-use')).toBe(false);
    expect(r.json.summary.files).toBe(3);
    expect(r.code).toBe(1);
  });

  it('an unknown rule in overrides is a config error (exit 3)', async () => {
    p = tempProject({
      'toolbox.config.yaml': 'lint:\n  overrides:\n    - { files: ["*"], rules: { no-such-rule: off } }\n',
      'tool_registry/b.yaml': tool('b_tool', GOOD),
    });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    expect(r.code).toBe(3);
    expect(r.errorJson.error.code).toBe('config_invalid');
  });

  it('# toolbox-disable-next-line silences the named rule on the next line; an unused one is reported', async () => {
    const contract = tool('a_tool', VAGUE).replace(
      'description:',
      '# toolbox-disable-next-line description-vague -- a legacy tool, kept as is\ndescription:',
    );
    p = tempProject({
      'tool_registry/a.yaml': contract,
      'tool_registry/b.yaml': tool('b_tool', GOOD).replace('name:', '# toolbox-disable-next-line param-type\nname:'),
    });
    const r = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    // Only the named rule is silenced: the short description is still reported.
    expect(rules(r)).toEqual([
      'a.yaml:description-too-short',
      'a.yaml:description-when-to-use',
      'b.yaml:unused-disable',
    ]);
    const unused = (r.json.diagnostics as D[]).find((d) => d.rule === 'unused-disable')!;
    expect(unused).toMatchObject({ severity: 'warning', line: 2 });
    expect(r.code).toBe(0);
    const all = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    p.write('tool_registry/a.yaml', contract.replace('description-vague -- a legacy tool, kept as is', ''));
    const bare = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    expect(rules(bare).filter((x) => x.startsWith('a.yaml'))).toEqual([]); // no rule list: every lint rule
    expect(all.code).toBe(0);
    // Structural errors cannot be disabled.
    p.write('tool_registry/c.yaml', '# toolbox-disable-next-line\nid: [broken\n');
    const s = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
    expect(rules(s)).toContain('c.yaml:yaml-syntax');
  });
});

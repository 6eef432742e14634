// Issue 23 item 7: secrets need the user's grant. A contract cannot give itself the project folder,
// its .git or an .env* file through sandbox.paths; and a grant is the user's, for one project and
// one tool: a cloned repository's `query_weather` never inherits another project's grant.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expected } from './cases.js';
import { contract, project, runOn, scratch, tiers } from './helpers.js';

const SECRET = 'DOTENV_SECRET_2323';
const tier = tiers[0]!;
const xdg = scratch('toolbox-xdg-');
const outside = scratch('toolbox-granted-');
const cat = `def cat(x):
    try:
        return open(x).read()
    except OSError as e:
        return type(e).__name__
`;
const tool = (id: string, paths: string[]) =>
  contract(
    id,
    'python_function',
    '{ module: my_tools.cat, function: cat }',
    `sandbox:\n  paths:\n${paths.map((x) => `    - ${JSON.stringify(x)}\n`).join('')}`,
  );
const p = project({
  '.env': `API_KEY=${SECRET}\n`,
  'config/.env.local': `DB=${SECRET}\n`,
  '.git/config': `[remote "origin"]\n\turl = https://u:${SECRET}@example.com/x.git\n`,
  'my_tools/__init__.py': '',
  'my_tools/cat.py': cat,
  'tool_registry/dotenv.yaml': tool('dotenv', ['.env']),
  'tool_registry/nested_env.yaml': tool('nested_env', ['config/.env.local']),
  'tool_registry/git.yaml': tool('git', ['.git']),
  'tool_registry/whole.yaml': tool('whole', ['.']),
});
// Another project (a cloned repository) with a tool of the same id as one the user granted elsewhere.
const clone = project({
  'my_tools/__init__.py': '',
  'my_tools/cat.py': cat,
  'tool_registry/query_weather.yaml': tool('query_weather', [join(outside.dir, 'cities.csv')]),
});
const grants = (text: string) => writeFileSync(join(xdg.dir, 'toolbox', 'grants.yaml'), text, { mode: 0o600 });
const prev = process.env.XDG_CONFIG_HOME;
beforeAll(() => {
  process.env.XDG_CONFIG_HOME = xdg.dir;
  mkdirSync(join(xdg.dir, 'toolbox'), { mode: 0o700 });
  writeFileSync(join(outside.dir, 'cities.csv'), 'beijing,shanghai');
  chmodSync(outside.dir, 0o755);
});
afterEach(() => rmSync(join(xdg.dir, 'toolbox', 'grants.yaml'), { force: true }));
afterAll(() => {
  if (prev === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = prev;
  p.cleanup();
  clone.cleanup();
  xdg.cleanup();
  outside.cleanup();
});

describe('issue 23 item 7: secrets and the project folder need the user grant', () => {
  it('validate reports .env, a nested .env.local, .git and "." as sandbox-path errors at line:column', async () => {
    expect(expected('paths-project-secrets', tier)).toBe('refused');
    const r = await runOn(tier, p.dir, ['validate', '--json']);
    expect(r.code).toBe(1);
    const ds = (r.json.diagnostics as { rule: string; file: string; line: number; column: number }[])
      .filter((d) => d.rule === 'sandbox-path')
      .map((d) => `${d.file.split('/').pop()}:${d.line}:${d.column}`)
      .sort();
    expect(ds).toEqual(['dotenv.yaml:10:7', 'git.yaml:10:7', 'nested_env.yaml:10:7', 'whole.yaml:10:7']);
  });

  it.each([
    ['dotenv', '.env', 'sandbox_path_secret'],
    ['nested_env', 'config/.env.local', 'sandbox_path_secret'],
    ['git', '.git/config', 'sandbox_path_secret'],
    ['whole', '.env', 'sandbox_path_root'],
  ])('run refuses %s before the tool reads %s', async (id, file, reason) => {
    const r = await runOn(tier, p.dir, ['run', id, '--x', join(p.dir, file), '--json']);
    expect([r.code, r.errorJson?.error.code, r.errorJson?.error.details?.reason]).toEqual([
      3,
      'sandbox_path_denied',
      reason,
    ]);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it("the user's grant for this project and tool lets it through; for another tool it does not", async () => {
    grants(
      `projects:\n  ${JSON.stringify(realpathSync(p.dir))}:\n    dotenv: { paths: [${JSON.stringify(join(p.dir, '.env'))}] }\n`,
    );
    const ok = await runOn(tier, p.dir, ['run', 'dotenv', '--x', join(p.dir, '.env'), '--json']);
    expect([ok.code, ok.json?.result]).toEqual([0, `API_KEY=${SECRET}\n`]);
    const other = await runOn(tier, p.dir, ['run', 'nested_env', '--x', join(p.dir, 'config/.env.local'), '--json']);
    expect(other.errorJson?.error.code).toBe('sandbox_path_denied');
  });

  it("a cloned project's query_weather does not inherit the grant of another project's query_weather", async () => {
    expect(expected('grants-other-project', tier)).toBe('refused');
    const cities = join(outside.dir, 'cities.csv');
    grants(
      `projects:\n  ${JSON.stringify(realpathSync(p.dir))}:\n    query_weather: { paths: [${JSON.stringify(outside.dir)}] }\n`,
    );
    const r = await runOn(tier, clone.dir, ['run', 'query_weather', '--x', cities, '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'sandbox_path_denied']);
    // The same grant for the clone's own path lets it through.
    grants(
      `projects:\n  ${JSON.stringify(realpathSync(clone.dir))}:\n    query_weather: { paths: [${JSON.stringify(outside.dir)}] }\n`,
    );
    const ok = await runOn(tier, clone.dir, ['run', 'query_weather', '--x', cities, '--json']);
    expect([ok.code, ok.json?.result]).toEqual([0, 'beijing,shanghai']);
  });

  it('an old-form grant (tool id alone, any project) is no longer read, and validate and the refusal say so', async () => {
    expect(expected('grants-old-form', tier)).toBe('refused');
    grants(`tools:\n  query_weather: { paths: [${JSON.stringify(outside.dir)}] }\n`);
    const r = await runOn(tier, clone.dir, ['run', 'query_weather', '--x', join(outside.dir, 'cities.csv'), '--json']);
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'sandbox_path_denied']);
    expect(r.errorJson.error.hint).toMatch(/old top-level `tools:`.*move it under `projects:`/);
    const v = await runOn(tier, clone.dir, ['validate', '--json']);
    const d = (v.json.diagnostics as { rule: string; file: string; line: number }[]).find(
      (x) => x.rule === 'grants-outdated',
    );
    expect(d).toMatchObject({ line: 1, file: join(xdg.dir, 'toolbox', 'grants.yaml') });
    const doc = await runOn(tier, clone.dir, ['doctor', '--json']);
    expect((doc.json.problems as { area: string }[]).some((x) => x.area === 'grants')).toBe(true);
  });
});

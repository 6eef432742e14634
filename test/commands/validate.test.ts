import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, tempProject, REFERENCE_CODE, REFERENCE_CONTRACT } from '../helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
const project = (files: Record<string, string | Uint8Array>) => {
  // The reference contract's code, unless a test brings its own: validate checks the function exists.
  const p = tempProject({ ...REFERENCE_CODE, ...files });
  cleanups.push(p.cleanup);
  return p;
};
const GOOD = REFERENCE_CONTRACT.replace('预报。', '预报。当用户询问某地天气时使用。');
const other = (id: string, description: string) =>
  REFERENCE_CONTRACT.replace('id: query_weather', `id: ${id}`).replace(
    /description: 根据.*\n/,
    `description: ${description}\n`,
  );

describe('toolbox validate', () => {
  it('passes the reference contract alone: no error, exit 0', async () => {
    const p = project({ 'tool_registry/query_weather.yaml': REFERENCE_CONTRACT });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.summary).toMatchObject({ files: 1, tools: 1, errors: 0 });
    expect(r.json.diagnostics.every((d: { severity: string }) => d.severity !== 'error')).toBe(true);
  });

  it('gives a clean result for a good contract', async () => {
    const p = project({ 'tool_registry/query_weather.yaml': GOOD });
    const r = await cli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no problems/);
  });

  it('exits 1 on errors, and on warnings with --fail-on warning', async () => {
    const p = project({ 'tool_registry/a.yaml': other('a', '处理文件') });
    const r = await cli(['validate', '--format', 'json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.diagnostics.map((d: { rule: string }) => d.rule)).toContain('description-vague');
    const q = project({ 'tool_registry/q.yaml': REFERENCE_CONTRACT });
    expect((await cli(['validate'], { cwd: q.dir })).code).toBe(0);
    expect((await cli(['validate', '--fail-on', 'warning'], { cwd: q.dir })).code).toBe(1);
  });

  it('honours lint settings from toolbox.config.yaml', async () => {
    const p = project({
      'toolbox.config.yaml': 'lint:\n  rules:\n    description-vague: warning\n    description-too-short: off\n',
      'tool_registry/a.yaml': other('a', '处理文件'),
    });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    const rules = r.json.diagnostics.map((d: { rule: string; severity: string }) => `${d.rule}:${d.severity}`);
    expect(rules).toContain('description-vague:warning');
    expect(rules.some((x: string) => x.startsWith('description-too-short'))).toBe(false);
  });

  it('exits 3 when it cannot run: no registry, or a bad lint config', async () => {
    const empty = project({});
    const r = await cli(['validate', '--json'], { cwd: empty.dir });
    expect(r.code).toBe(3);
    expect(r.errorJson.error.code).toBe('registry_not_found');
    const fj = await cli(['validate', '--format', 'json'], { cwd: empty.dir });
    expect(fj.code).toBe(3);
    expect(fj.errorJson.error.code).toBe('registry_not_found');
    const bad = project({
      'toolbox.config.yaml': 'lint:\n  rules:\n    no-such-rule: off\n',
      'tool_registry/a.yaml': GOOD,
    });
    const r2 = await cli(['validate', '--json'], { cwd: bad.dir });
    expect(r2.code).toBe(3);
    expect(r2.errorJson.error.code).toBe('config_invalid');
    expect(r2.stdout).toBe('');
  });

  it('reports duplicate ids with both locations', async () => {
    const p = project({ 'tool_registry/a.yaml': GOOD, 'tool_registry/sub/b.yaml': GOOD });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    const dup = r.json.diagnostics.find((d: { rule: string }) => d.rule === 'duplicate-id');
    expect(dup).toMatchObject({ line: 1, column: 1, severity: 'error' });
    expect(dup.file).toMatch(/sub\/b\.yaml$/);
    expect(dup.message).toContain('tool_registry/a.yaml:1');
    expect(r.code).toBe(1);
  });

  it('names the pair and how alike when two descriptions are too similar', async () => {
    const p = project({
      'tool_registry/a.yaml': GOOD,
      'tool_registry/b.yaml': GOOD.replace('id: query_weather', 'id: weather_now'),
    });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    const sim = r.json.diagnostics.find((d: { rule: string }) => d.rule === 'description-similar');
    expect(sim.message).toMatch(
      /'weather_now' is 100% alike to that of 'query_weather' \(tool_registry\/a\.yaml:3:1\)/,
    );
  });
});

describe('toolbox validate on hostile input', () => {
  const bomb =
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n';
  const cases: [string, string | Uint8Array, string, number?][] = [
    ['unparsable.yaml', 'id: a\nname: [unclosed\ndescription: x\n', 'yaml-syntax', 3],
    ['binary.yaml', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]), 'binary-file', 1],
    ['empty.yaml', '', 'empty-file', 1],
    ['bomb.yaml', bomb, 'yaml-syntax', 1],
    [
      'proto.yaml',
      REFERENCE_CONTRACT.replace('id: query_weather', 'id: proto') +
        'loader_config2:\n  __proto__:\n    polluted: true\n',
      'unsafe-key',
      17,
    ],
    ['latin1.yaml', new Uint8Array([...new TextEncoder().encode('id: x\nname: caf'), 0xe9, 0x0a]), 'encoding', 2],
  ];

  it('gives each bad file a located diagnostic and validates the others', async () => {
    const files: Record<string, string | Uint8Array> = { 'tool_registry/zz_good.yaml': GOOD };
    for (const [name, content] of cases) files[`tool_registry/${name}`] = content;
    const p = project(files);
    p.write('tool_registry/huge.yaml', 'description: "' + 'x'.repeat(10 * 1024 * 1024) + '"\n');
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const byFile = (f: string) => r.json.diagnostics.filter((d: { file: string }) => d.file.endsWith(`/${f}`));
    for (const [name, , rule, line] of cases) {
      const ds = byFile(name);
      expect(
        ds.map((d: { rule: string }) => d.rule),
        name,
      ).toContain(rule);
      const d = ds.find((x: { rule: string }) => x.rule === rule);
      expect(d.line, name).toBe(line);
      expect(d.column, name).toBeGreaterThan(0);
    }
    expect(byFile('huge.yaml')[0]).toMatchObject({ rule: 'file-too-large', line: 1, column: 1 });
    expect(byFile('huge.yaml')[0].message).toContain('10485776 bytes');
    expect(byFile('zz_good.yaml')).toEqual([]);
    expect(r.json.summary).toMatchObject({ files: 8, tools: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never fetches a remote $ref', async () => {
    let requests = 0;
    const server: Server = createServer((_req, res) => {
      requests++;
      res.end('{"type":"string"}');
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    cleanups.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/city.json`;
    const p = project({ 'tool_registry/a.yaml': GOOD.replace('      type: string\n', `      $ref: "${url}"\n`) });
    const r = await cli(['validate', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.diagnostics[0]).toMatchObject({ rule: 'remote-ref', line: 8, column: 7 });
    await new Promise((res) => setTimeout(res, 100));
    expect(requests).toBe(0);
  });
});

// toolbox lock / validate --locked / run --locked on a real project with a real Python tool.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli, tempProject } from '../helpers.js';

const CONTRACT = `id: shout
name: Shout
description: Returns the text in upper case. Use when the user asks to shout or capitalise a text.
schema:
  type: object
  properties:
    text: { type: string, description: The text. }
  required: [text]
loader: python_function
loader_config: { module: tools.shout, function: shout }
sandbox:
  network: false
  env: [SHOUT_LANG]
timeout: 10
`;

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function project() {
  const p = tempProject({
    'tool_registry/shout.yaml': CONTRACT,
    'tools/__init__.py': '',
    'tools/shout.py': 'def shout(text):\n    return text.upper()\n',
  });
  cleanups.push(p.cleanup);
  return p;
}

const lockText = (dir: string) => readFileSync(join(dir, 'toolbox.lock'), 'utf8');
const edit = (file: string, from: string, to: string) => {
  const s = readFileSync(file, 'utf8');
  expect(s).toContain(from);
  writeFileSync(file, s.replace(from, to));
};

describe('toolbox lock', () => {
  it('writes a stable, reviewable lock: hashes, implementation file, grant in clear', async () => {
    const p = project();
    const r = await cli(['lock', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ tools: 1, changes: [], created: true });
    const first = lockText(p.dir);
    const lock = parse(first);
    expect(lock.version).toBe(1);
    const e = lock.tools.shout;
    expect(Object.keys(e)).toEqual(['model', 'runs', 'sandbox']);
    expect(Object.keys(e.model)).toEqual(['name', 'description', 'schema']);
    expect(e.runs).toMatchObject({ loader: 'python_function', implementation: { file: 'tools/shout.py' } });
    expect(e.sandbox).toEqual({ network: false, env: ['SHOUT_LANG'], paths: [], timeout: 10 });
    // Same registry, same bytes (diff-friendly); the second run says nothing changed, not "created".
    const again = await cli(['lock'], { cwd: p.dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/toolbox\.lock: 1 tool, no changes/);
    expect(again.stderr).not.toMatch(/created/);
    expect(lockText(p.dir)).toBe(first);
    expect(((await cli(['lock', '--json'], { cwd: p.dir })).json as { created: boolean }).created).toBe(false);
  });

  it('the first lock says it created the file', async () => {
    const p = project();
    const r = await cli(['lock'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^created toolbox\.lock: 1 tool locked/m);
  });

  it('validate --locked: clean, then per-field drift on the contract lines, grants as lock-grant', async () => {
    const p = project();
    await cli(['lock'], { cwd: p.dir });
    expect((await cli(['validate', '--locked', '--no-routing', '--json'], { cwd: p.dir })).code).toBe(0);
    const file = join(p.dir, 'tool_registry/shout.yaml');
    edit(file, 'network: false', 'network: true');
    edit(file, 'Returns the text in upper case.', 'Returns the text in upper case, loudly.');
    writeFileSync(join(p.dir, 'tools/shout.py'), 'def shout(text):\n    return text.upper() + "!"\n');
    const r = await cli(['validate', '--locked', '--no-routing', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    const ds = (r.json.diagnostics as { rule: string; path: string; line: number; message: string }[]).filter((d) =>
      d.rule.startsWith('lock-'),
    );
    expect(ds.map((d) => [d.rule, d.path, d.line])).toEqual([
      ['lock-drift', 'model.description', 3],
      ['lock-drift', 'runs.implementation', 10],
      ['lock-grant', 'sandbox.network', 12],
    ]);
    expect(ds[2]!.message).toMatch(/SANDBOX GRANT CHANGED.*sandbox\.network false → true/);
    const gh = await cli(['validate', '--locked', '--no-routing', '--format', 'github'], { cwd: p.dir });
    expect(gh.stdout).toMatch(/::error file=tool_registry\/shout\.yaml,line=12,col=\d+,title=lock-grant::/);
    // Accepting the change: lock reports it, then validate is clean again.
    const acc = await cli(['lock', '--json'], { cwd: p.dir });
    expect(acc.json.changes.map((c: { kind: string; field: string }) => `${c.kind}:${c.field}`)).toEqual([
      'grant:sandbox.network',
      'runs:runs.implementation',
      'model:model.description',
    ]);
    expect((await cli(['validate', '--locked', '--no-routing'], { cwd: p.dir })).code).toBe(0);
  });

  it('a new tool is drift; no lock is exit 3', async () => {
    const p = project();
    const none = await cli(['validate', '--locked', '--no-routing', '--json'], { cwd: p.dir });
    expect(none.code).toBe(3);
    expect(none.errorJson.error.code).toBe('lock_missing');
    await cli(['lock'], { cwd: p.dir });
    p.write('tool_registry/whisper.yaml', CONTRACT.replace('id: shout', 'id: whisper'));
    const r = await cli(['validate', '--locked', '--no-routing', '--json'], { cwd: p.dir });
    expect(r.json.diagnostics.filter((d: { rule: string }) => d.rule === 'lock-drift')).toMatchObject([
      { path: 'tool', message: expect.stringContaining('whisper: new tool') },
    ]);
  });

  it('run --locked and config `locked: true` refuse a drifted tool before it runs (exit 3, lock_drift)', async () => {
    const p = project();
    await cli(['lock'], { cwd: p.dir });
    const ok = await cli(['run', 'shout', '--locked', '--text', 'hi', '--json'], { cwd: p.dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.result).toBe('HI');
    edit(join(p.dir, 'tool_registry/shout.yaml'), 'env: [SHOUT_LANG]', 'env: [SHOUT_LANG, AWS_SECRET_ACCESS_KEY]');
    const bad = await cli(['run', 'shout', '--locked', '--text', 'hi', '--json'], { cwd: p.dir });
    expect(bad.code).toBe(3);
    expect(bad.errorJson.error.code).toBe('lock_drift');
    expect(bad.errorJson.error.message).toContain('AWS_SECRET_ACCESS_KEY');
    // Without --locked it runs; with the config switch it is refused again.
    expect((await cli(['run', 'shout', '--text', 'hi', '--json'], { cwd: p.dir })).code).toBe(0);
    p.write('toolbox.config.yaml', 'registry: tool_registry\nlocked: true\n');
    const cfg = await cli(['run', 'shout', '--text', 'hi', '--json'], { cwd: p.dir });
    expect(cfg.code).toBe(3);
    expect(cfg.errorJson.error.code).toBe('lock_drift');
  });
});

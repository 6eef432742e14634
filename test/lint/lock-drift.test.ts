// `validate --locked`: each kind of drift from toolbox.lock is reported on the contract line that
// changed (grants as lock-grant), a tool gone from the registry on toolbox.lock itself.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { resolveProject } from '../../src/config.js';
import { validateProject } from '../../src/lint/validate.js';
import { LOCK_RULES } from '../../src/lint/lock-drift.js';
import { writeProjectLock } from '../../src/lock/index.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { ToolboxError } from '../../src/errors.js';
import { tempProject } from '../helpers.js';

const tool = (
  id: string,
  extra = '',
  loader = 'loader: command\nloader_config: { argv: [echo, "{{q}}"] }',
) => `id: ${id}
name: ${id}
description: "Look up the opening hours of a shop by its name and city. Use when the user asks whether a shop is open (${id})."
schema: { type: object, properties: { q: { type: string, description: The shop's name and city. } } }
${loader}
${extra}`;

let p: ReturnType<typeof tempProject>;
afterEach(() => p.cleanup());

describe('validate --locked: where each drift is reported', () => {
  it('timeout, permissions, limits, name, schema, loader, loader_config, deps, added and removed tools', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('tool_a', 'timeout: 5\n'),
      'tool_registry/b.yaml': tool('tool_b', 'permissions: [read]\n'),
      'tool_registry/c.yaml': tool('tool_c', 'sandbox:\n  memory: 64\n'),
      'tool_registry/d.yaml': tool('tool_d'),
      'tool_registry/e.yaml': tool('tool_e', 'requires:\n  env: [TOOL_E_KEY]\n'),
      'tool_registry/gone.yaml': tool('tool_gone'),
    });
    const project = resolveProject({ cwd: p.dir });
    await writeProjectLock(project, loadRegistry(project, { cache: false }).entries);
    // a dependency version recorded in the lock that the tool no longer has
    const lockFile = join(p.dir, 'toolbox.lock');
    const lock = parse(readFileSync(lockFile, 'utf8')) as { tools: Record<string, Record<string, unknown>> };
    lock.tools.tool_e!.deps = { 'python:requests': '2.0.0' };
    writeFileSync(lockFile, stringify(lock));

    p.write('tool_registry/a.yaml', tool('tool_a', '\ntimeout: 9\n'));
    p.write('tool_registry/b.yaml', tool('tool_b', '\n\npermissions: [read, write]\n').replace('(tool_b)', '(b)'));
    p.write('tool_registry/c.yaml', tool('tool_c', 'sandbox:\n  network: false\n  memory: 128\n'));
    p.write(
      'tool_registry/d.yaml',
      tool('tool_d', '', 'loader: node_module\nloader_config: { module: ./x.mjs, function: f }').replace(
        'type: string,',
        'type: integer,',
      ),
    );
    p.write(
      'tool_registry/e.yaml',
      tool('tool_e', '\nrequires:\n  env: [TOOL_E_KEY]\n')
        .replace('name: tool_e', 'name: Tool E')
        .replace('[echo,', '[printf,'),
    );
    p.write('tool_registry/gone.yaml', '');
    // the id on line 2: a new tool is reported on its id, not where the contract starts
    p.write('tool_registry/new.yaml', tool('tool_new').replace(/^(id: .*)\n(name: .*)\n/, '$2\n$1\n'));

    const r = await validateProject(resolveProject({ cwd: p.dir }), { routing: false, locked: true });
    const got = r.diagnostics
      .filter((d) => d.rule.startsWith('lock-'))
      .map((d) => `${d.file.replace(`${p.dir}/`, '')}:${d.line}:${d.column} ${d.rule} ${d.path} | ${d.message}`);
    expect(got).toEqual([
      'tool_registry/a.yaml:8:1 lock-grant sandbox.timeout | SANDBOX GRANT CHANGED: tool_a: sandbox.timeout 5 → 9',
      'tool_registry/b.yaml:3:1 lock-drift model.description | tool_b: description changed',
      'tool_registry/b.yaml:9:1 lock-grant sandbox.permissions | SANDBOX GRANT CHANGED: tool_b: sandbox.permissions ["read"] → ["read","write"]',
      'tool_registry/c.yaml:9:3 lock-grant sandbox.memory | SANDBOX GRANT CHANGED: tool_c: sandbox.memory 64 → 128',
      'tool_registry/d.yaml:4:1 lock-drift model.schema | tool_d: schema changed',
      'tool_registry/d.yaml:5:1 lock-drift runs.loader | tool_d: loader command → node_module',
      'tool_registry/d.yaml:6:1 lock-drift runs.loader_config | tool_d: loader_config changed',
      'tool_registry/e.yaml:2:1 lock-drift model.name | tool_e: name changed',
      'tool_registry/e.yaml:6:1 lock-drift runs.loader_config | tool_e: loader_config changed',
      'tool_registry/e.yaml:8:1 lock-drift deps.python:requests | tool_e: deps.python:requests removed',
      'tool_registry/new.yaml:2:1 lock-drift tool | tool_new: new tool, not in toolbox.lock',
      'toolbox.lock:1:1 lock-drift tool | tool_gone: in toolbox.lock but gone from the registry',
    ]);
    const hint = (rule: string) => r.diagnostics.find((d) => d.rule === rule)!.hint;
    expect(hint('lock-grant')).toMatch(/accept it with `toolbox lock`/);
    expect(hint('lock-drift')).toMatch(/accept it with `toolbox lock`/);
    expect(hint('lock-grant')).not.toBe(hint('lock-drift'));
  });

  it('no lock: exit 3 naming the missing file and how to create it', async () => {
    p = tempProject({ 'tool_registry/a.yaml': tool('tool_a') });
    const e = (await validateProject(resolveProject({ cwd: p.dir }), { routing: false, locked: true }).catch(
      (x: unknown) => x,
    )) as ToolboxError;
    expect(e).toMatchObject({ code: 'lock_missing', exitCode: 3 });
    expect(e.message).toBe(`--locked: there is no ${join(p.dir, 'toolbox.lock')}`);
    expect(e.hint).toBe('Create it with `toolbox lock` and commit it.');
  });

  it('describes the two rules it adds', () => {
    expect(LOCK_RULES.map((r) => [r.id, r.severity])).toEqual([
      ['lock-grant', 'error'],
      ['lock-drift', 'error'],
    ]);
    for (const r of LOCK_RULES) {
      expect(r.description).toMatch(/differs from toolbox\.lock/);
      expect(r.docs).toMatch(/accept it with `toolbox lock`/);
    }
  });
});

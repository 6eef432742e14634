// validateProject on small real registries, every finding written out as
// "file:line:col severity rule" (and the messages that carry a location or a number).
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { hasFindings, validateProject, yielder, type ValidationResult } from '../../src/lint/validate.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { writeProjectLock } from '../../src/lock/index.js';
import { ToolboxError } from '../../src/errors.js';
import { tempProject } from '../helpers.js';

const GOOD =
  'Look up the opening hours of a shop by its name and city. Use it when the user asks whether a shop is open.';
const TRAIN = 'Returns the price of a train ticket between two stations. Use when the user asks what a trip costs.';
const tool = (id: string, description: string, extra = '') => `id: ${id}
name: ${id}
description: ${JSON.stringify(description)}
schema: { type: object, properties: { q: { type: string, description: The shop's name and city. } }, required: [q] }
loader: command
loader_config: { argv: [echo, "{{q}}"] }
${extra}`;

let p: ReturnType<typeof tempProject>;
afterEach(() => p.cleanup());
const validate = (opts: Parameters<typeof validateProject>[1] = {}) =>
  validateProject(resolveProject({ cwd: p.dir }), { routing: false, ...opts });
const found = (r: ValidationResult) =>
  r.diagnostics.map(
    (d) => `${d.file.replace(`${p.dir}/tool_registry/`, '')}:${d.line}:${d.column} ${d.severity} ${d.rule}`,
  );

describe('validateProject', () => {
  it('reports every broken file where it is broken and validates the rest', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('shop_hours', GOOD),
      'tool_registry/b.yaml': tool('shop_hours', TRAIN),
      'tool_registry/c.yaml': tool('files_tool', 'Handles files.'),
      'tool_registry/d.yaml': tool(
        'etc_reader',
        'Reads one configuration file of the system by its name. Use when the user asks what a setting is.',
        'sandbox:\n  paths:\n    - data\n    - /etc\n',
      ),
      'tool_registry/big.yaml': 'id: big\n' + '#'.repeat(1024 * 1024),
      'tool_registry/broken.yaml': 'id: [\n',
    });
    symlinkSync(join(p.dir, 'nowhere.yaml'), join(p.dir, 'tool_registry', 'gone.yaml'));
    const r = await validate();
    expect(found(r)).toEqual([
      'b.yaml:1:1 error duplicate-id',
      'big.yaml:1:1 error file-too-large',
      'broken.yaml:2:1 error yaml-syntax',
      'c.yaml:3:1 warning description-too-short',
      'c.yaml:3:1 error description-vague',
      'c.yaml:3:1 warning description-when-to-use',
      'd.yaml:10:7 error sandbox-path',
      'gone.yaml:1:1 error unreadable',
    ]);
    expect(r.summary).toEqual({ files: 7, tools: 3, errors: 6, warnings: 2, infos: 0 });
    const msg = (rule: string) => r.diagnostics.find((d) => d.rule === rule)!;
    expect(msg('duplicate-id')).toMatchObject({
      path: 'id',
      message: "duplicate id 'shop_hours': also defined in tool_registry/a.yaml:1",
    });
    expect(msg('file-too-large').message).toBe('contract file is 1048584 bytes; the limit is 1048576 (1 MiB)');
    expect(msg('sandbox-path')).toMatchObject({
      path: 'sandbox.paths[1]',
      message: "sandbox.paths '/etc' is outside the project",
    });
    expect(msg('unreadable').message).toMatch(/^cannot read the file: .*gone\.yaml does not exist/);
    for (const d of r.diagnostics) expect(d.hint, d.rule).toBeTruthy();
    // Every rule that can appear is described: structural, lint, not lock (not --locked).
    const ids = r.rules.map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['yaml-syntax', 'duplicate-id', 'routing', 'description-vague']));
    expect(ids).not.toContain('lock-drift');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows paths relative to cwd when given', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('shop_hours', GOOD),
      'tool_registry/b.yaml': tool('shop_hours', TRAIN),
    });
    const r = await validate({ cwd: join(p.dir, 'tool_registry') });
    expect(r.diagnostics[0]!.message).toBe("duplicate id 'shop_hours': also defined in a.yaml:1");
  });

  it('files: reports only on those files (and counts only them), still comparing with the rest', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('shop_hours', GOOD),
      'tool_registry/b.yaml': tool('shop_hours', TRAIN),
      'tool_registry/c.yaml': tool('files_tool', 'Handles files.'),
    });
    const r = await validate({ files: [join(p.dir, 'tool_registry', 'b.yaml')] });
    expect(found(r)).toEqual(['b.yaml:1:1 error duplicate-id']);
    // b.yaml holds no valid tool (a duplicate); the registry's other files were read, not reported on.
    expect(r.summary).toEqual({
      files: 1,
      tools: 0,
      errors: 1,
      warnings: 0,
      infos: 0,
      registry: { files: 3, tools: 2 },
    });
  });

  it('a lint rule turned off in the config and on by an override runs only for the override files', async () => {
    p = tempProject({
      'toolbox.config.yaml': `lint:
  rules: { description-when-to-use: off, description-too-short: info }
  overrides:
    - files: ["strict/*.yaml"]
      rules: { description-when-to-use: error, description-vague: off }
`,
      'tool_registry/strict/s.yaml': tool('s_tool', 'Handles files.'),
      'tool_registry/loose.yaml': tool('l_tool', 'Handles files.'),
    });
    const r = await validate();
    expect(found(r)).toEqual([
      'loose.yaml:3:1 info description-too-short',
      'loose.yaml:3:1 error description-vague',
      'strict/s.yaml:3:1 warning description-similar',
      'strict/s.yaml:3:1 info description-too-short',
      'strict/s.yaml:3:1 error description-when-to-use',
    ]);
    expect(r.summary).toMatchObject({ errors: 2, warnings: 1, infos: 2 });
  });

  it('an unknown rule in an override is a config error naming the entry', async () => {
    p = tempProject({
      'toolbox.config.yaml':
        'lint:\n  overrides:\n    - { files: ["*"], rules: { description-vague: warning } }\n    - { files: ["*"], rules: { no-such-rule: off } }\n',
      'tool_registry/a.yaml': tool('a_tool', GOOD),
    });
    const e = await validate().catch((x: unknown) => x as ToolboxError);
    expect(e).toMatchObject({ code: 'config_invalid', exitCode: 3 });
    expect((e as ToolboxError).message).toMatch(/lint\.overrides\[1\]\.rules: unknown rule 'no-such-rule'$/);
    expect((e as ToolboxError).hint).toMatch(/^Rules: .*description-vague/);
  });

  it('the routing check runs by default and takes its severity from the config', async () => {
    const ex = 'examples:\n  - what is the weather in Paris tomorrow\n';
    p = tempProject({
      'toolbox.config.yaml': 'lint:\n  rules: { routing: error }\n',
      'tool_registry/a.yaml': tool('shop_hours', GOOD, ex),
      'tool_registry/b.yaml': tool('train_fare', TRAIN),
    });
    const r = await validateProject(resolveProject({ cwd: p.dir }));
    expect(found(r)).toEqual(['a.yaml:8:5 error routing']);
    expect(found(await validate())).toEqual([]);
    writeFileSync(join(p.dir, 'toolbox.config.yaml'), 'lint:\n  rules: { routing: off }\n');
    expect(found(await validateProject(resolveProject({ cwd: p.dir })))).toEqual([]);
  });
});

describe('validateProject --locked', () => {
  it('no lock is exit 3; drift is reported on the changed line, a widened grant as lock-grant', async () => {
    p = tempProject({
      'tool_registry/a.yaml': tool('shop_hours', GOOD),
      'tool_registry/b.yaml': tool('train_fare', TRAIN),
    });
    const e = await validate({ locked: true }).catch((x: unknown) => x as ToolboxError);
    expect(e).toMatchObject({ code: 'lock_missing', exitCode: 3 });
    const project = resolveProject({ cwd: p.dir });
    await writeProjectLock(project, loadRegistry(project, { cache: false }).entries);
    expect(found(await validate({ locked: true }))).toEqual([]);
    p.write('tool_registry/a.yaml', tool('shop_hours', GOOD.replace('shop', 'store')));
    p.write('tool_registry/b.yaml', tool('train_fare', TRAIN, 'sandbox:\n  network: true\n'));
    const r = await validate({ locked: true });
    expect(found(r)).toEqual(['a.yaml:3:1 error lock-drift', 'b.yaml:8:3 error lock-grant']);
    expect(r.diagnostics[1]!.message).toMatch(/^SANDBOX GRANT CHANGED: /);
    expect(r.rules.map((x) => x.id)).toEqual(expect.arrayContaining(['lock-drift', 'lock-grant']));
  });
});

describe('hasFindings and yielder', () => {
  const d = (severity: 'error' | 'warning' | 'info') => ({
    file: 'f',
    line: 1,
    column: 1,
    severity,
    rule: 'r',
    message: 'm',
  });
  it('fails at or above the chosen severity', () => {
    expect(hasFindings([d('warning')], 'warning')).toBe(true);
    expect(hasFindings([d('warning')], 'error')).toBe(false);
    expect(hasFindings([d('info')], 'warning')).toBe(false);
    expect(hasFindings([d('info'), d('error')], 'info')).toBe(true);
    expect(hasFindings([], 'info')).toBe(false);
  });
  it('an aborted validation stops with cancelled (exit 130) at the next breath', async () => {
    const ac = new AbortController();
    const breathe = yielder(ac.signal);
    await breathe(); // too soon: returns at once
    ac.abort();
    await new Promise((r) => setTimeout(r, 60));
    await expect(breathe()).rejects.toMatchObject({ code: 'cancelled', exitCode: 130 });
    await new Promise((r) => setTimeout(r, 60));
    await expect(yielder()()).resolves.toBeUndefined();
  });
});

// A project's toolbox.config.yaml may not move the project: the project root is the folder above the
// registry and toolbox keeps its state (.toolbox/) there and reads the user's grants for it, so a
// cloned project's `registry: /elsewhere/tool_registry` or `registry: ../..` would make toolbox write
// into another folder and run that folder's tools with that folder's grants.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expected } from './cases.js';
import { contract, project, runOn, scratch, tiers } from './helpers.js';

const victim = scratch('toolbox-sec-victim-');
mkdirSync(join(victim.dir, 'tool_registry'));
const tool = contract('echo', 'command', '{ argv: [echo, hi] }');
const clones: { cleanup(): void }[] = [];
afterAll(() => {
  victim.cleanup();
  for (const c of clones) c.cleanup();
});

describe("a project's config cannot point the registry (and so the state folder) outside itself", () => {
  for (const [name, registry] of [
    ['an absolute path', `${victim.dir}/tool_registry`],
    ['a relative path up and out', '../' + victim.dir.split('/').pop() + '/tool_registry'],
    ['the config folder itself', '.'],
  ] as const)
    it(`${name}: config_invalid at the key's line:column (exit 3), nothing written there`, async () => {
      expect(expected('config-registry-outside', tiers[0]!)).toBe('refused');
      // The clone sits in a private folder (p.dir), so `registry: .` would write p.dir/.toolbox.
      const p = project({
        'clone/tool_registry/echo.yaml': tool,
        'clone/toolbox.config.yaml': `# clone\nregistry: ${registry.replace('../', '../../')}\n`,
      });
      clones.push(p);
      const r = await runOn(tiers[0]!, join(p.dir, 'clone'), ['list', '--json']);
      expect([r.code, r.errorJson?.error.code]).toEqual([3, 'config_invalid']);
      expect(r.errorJson?.error.message).toMatch(/toolbox\.config\.yaml:2:1: registry/);
      expect(existsSync(join(victim.dir, '.toolbox'))).toBe(false);
      expect(existsSync(join(p.dir, '.toolbox'))).toBe(false);
    });

  it('a registry folder inside the project still works, and --registry points anywhere', async () => {
    const p = project({ 'regs/main/echo.yaml': tool, 'toolbox.config.yaml': 'registry: regs/main\n' });
    clones.push(p);
    const r = await runOn(tiers[0]!, p.dir, ['list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const q = project({ 'toolbox.config.yaml': 'registry: tool_registry\n' });
    clones.push(q);
    mkdirSync(join(q.dir, 'tool_registry'));
    const other = await runOn(tiers[0]!, q.dir, ['list', '--json', '--registry', join(p.dir, 'regs', 'main')]);
    expect(other.code, other.stderr).toBe(0);
  });
});

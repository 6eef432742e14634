// The real background verifier (dist/select/verify-main.js, started by a cold select of a large
// registry through the real binary) writes the registry cache the first build left to it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { hasRegistryCache, readIdEntry } from '../../src/registry/cache.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { spawnCli, tempProject } from '../helpers.js';

/** Whether a background verifier of the project in `dir` is running (its command line names the folder). */
function verifierRunning(dir: string): boolean {
  return readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmd.includes('verify-main.js') && cmd.includes(dir);
    } catch {
      return false; // gone meanwhile
    }
  });
}

describe('the real background verifier', () => {
  it('writes the registry cache after a cold select of a large registry (real binary, 2,100 contracts)', async () => {
    const big = tempProject();
    try {
      for (let i = 0; i < 2100; i++)
        big.write(
          `tool_registry/g${Math.floor(i / 500)}/t${i}.yaml`,
          `id: tool_${i}\nname: Tool ${i}\ndescription: ${i === 7 ? 'Weather forecast for a city' : `Look up the records number ${i}`}.\n` +
            `schema: {type: object, properties: {key: {type: string}}}\nloader: command\nloader_config: {argv: [echo]}\n`,
        );
      const r = await spawnCli(['select', 'weather forecast', '--json'], { cwd: big.dir });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { results: { id: string }[] }).results[0]!.id).toBe('tool_7');
      const pr = resolveProject({ cwd: big.dir });
      // The verifier is a detached process: wait for its cache (it takes about a second here).
      for (let i = 0; i < 600 && !hasRegistryCache(pr); i++) await new Promise((res) => setTimeout(res, 100));
      expect(hasRegistryCache(pr)).toBe(true);
      expect(readIdEntry(pr, 'tool_1234')!.rel).toBe('g2/t1234.yaml');
      expect(loadRegistry(pr).parsed).toBe(0);
      // Let it exit before the folder goes.
      for (let i = 0; i < 600 && verifierRunning(big.dir); i++) await new Promise((res) => setTimeout(res, 100));
    } finally {
      big.cleanup();
    }
  }, 120_000);
});

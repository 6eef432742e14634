import { describe, expect, it } from 'vitest';
import { REPO, cli, spawnCli } from '../helpers.js';

describe('help and version', () => {
  it('`run --help` without an id prints run\'s own usage (exit 0), not "Unknown tool"', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await cli(['run', flag], { cwd: REPO });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: toolbox run <id>/);
      expect(r.stdout).toContain('--timeout');
    }
  });

  it('subcommand help lists the global options', async () => {
    const r = await cli(['validate', '--help'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Global Options:[\s\S]*--json[\s\S]*--registry/);
  });

  it('--version --json prints one JSON document, through the real binary too', async () => {
    const r = await cli(['--version', '--json'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ name: 'agent-toolbox', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const b = await spawnCli(['--json', '--version'], { cwd: REPO });
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout).version).toBe(r.json.version);
  });
});

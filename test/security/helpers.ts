// Shared by test/security: temp projects with hostile tools, tier forcing, the CLI.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, tempProject } from '../helpers.js';
import { availableTiers, type SandboxTier } from '../../src/sandbox/index.js';
import { onTier } from '../sandbox/helpers.js';

export { onTier };
export const tiers = await availableTiers();
export const root = process.getuid?.() === 0;

/** A contract for a tool (YAML text). */
export function contract(id: string, loader: string, loaderConfig: string, extra = ''): string {
  return `id: ${id}
name: ${id}
description: A hostile tool used by the security tests of toolbox; it must stay contained.
provider: test
schema: { type: object, properties: { x: { type: string } } }
loader: ${loader}
loader_config: ${loaderConfig}
${extra}`;
}

/** A project folder (0755, so the sandbox's per-call uid can enter it) with the given files. */
export function project(files: Record<string, string> = {}) {
  const p = tempProject({ 'toolbox.config.yaml': 'registry: tool_registry\n', ...files });
  chmodSync(p.dir, 0o755);
  return p;
}

/** Run the CLI in process on a forced tier (with extra environment variables for the command). */
export function runOn(tier: SandboxTier, dir: string, argv: string[], env?: NodeJS.ProcessEnv) {
  return onTier(tier, () => cli(argv, { cwd: dir, ...(env ? { env } : {}) }));
}

/** A throwaway folder, removed by the returned function. */
export function scratch(prefix = 'toolbox-sec-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, tempProject } from '../helpers.js';
import { resolveProject } from '../../src/config.js';

export const FIXTURE_REGISTRY = join(REPO, 'test', 'fixtures', 'select', 'registry');

/** A temp project whose tool_registry/ is a copy of the select fixture registry (plus `files`). */
export function fixtureProject(files: Record<string, string> = {}) {
  const p = tempProject(files);
  cpSync(FIXTURE_REGISTRY, join(p.dir, 'tool_registry'), { recursive: true });
  return { ...p, project: () => resolveProject({ cwd: p.dir }) };
}

/** The text of one fixture contract (to derive broken or edited variants). */
export function fixtureContract(name: string): string {
  return readFileSync(join(FIXTURE_REGISTRY, `${name}.yaml`), 'utf8');
}

export const fixtureIds = () =>
  readdirSync(FIXTURE_REGISTRY)
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();

import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import type { ToolDeps } from '../deps/types.js';
import { codeDigest, codeFiles, fileSha } from './code.js';
import { canonicalJson, hashValue } from './hash.js';
import type { LockEntry } from './types.js';

/** Contract fields a model sees (tools/list, provider tool definitions). */
export const MODEL_FIELDS = [
  'name',
  'title',
  'description',
  'schema',
  'annotations',
  'output_schema',
  'icons',
] as const;

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The implementation file of a local tool, when there is one under the project. */
function implementationFile(project: Project, entry: ToolEntry): string | undefined {
  const c = entry.contract;
  const cfg = c.loader_config;
  let candidates: string[] = [];
  if (c.loader === 'python_function' && typeof cfg.module === 'string') {
    const base = join(project.root, ...cfg.module.split('.'));
    candidates = [`${base}.py`, join(base, '__init__.py')];
  } else if (c.loader === 'node_module' && typeof cfg.module === 'string') {
    candidates = [isAbsolute(cfg.module) ? cfg.module : resolve(project.root, cfg.module)];
  } else if (c.loader === 'command' && Array.isArray(cfg.argv) && typeof cfg.argv[0] === 'string') {
    if (cfg.argv[0].includes('/')) candidates = [resolve(project.root, cfg.argv[0])];
  } else if (c.loader === 'mcp' && typeof cfg.command === 'string' && cfg.command.includes('/')) {
    candidates = [resolve(project.root, cfg.command)];
  }
  return candidates.find(isFile);
}

const rel = (project: Project, f: string) => {
  const r = relative(project.root, f);
  return r.startsWith('..') || isAbsolute(r) ? f : r.split(sep).join('/');
};

/**
 * The sandbox grant in clear: what the tool may reach. The env list is every host variable the
 * runtime passes (sandbox.env and requires.env); defaults are written out so a change shows.
 */
export function grantOf(entry: ToolEntry): Record<string, unknown> {
  const c = entry.contract;
  const s = c.sandbox ?? {};
  const env = [...new Set([...(s.env ?? []), ...(c.requires?.env ?? [])])].sort();
  const g: Record<string, unknown> = {
    network: Array.isArray(s.network) ? [...s.network].sort() : s.network === true,
    env,
    paths: [...(s.paths ?? [])].sort(),
  };
  for (const k of ['memory', 'cpu', 'processes', 'file_size', 'open_files', 'output'] as const)
    if (s[k] !== undefined) g[k] = s[k];
  if (c.timeout !== undefined) g.timeout = c.timeout;
  if (c.permissions !== undefined) g.permissions = c.permissions;
  return g;
}

/** Resolved versions from a dependency check ("python:requests" → "2.32.3"); env vars are not versions. */
export function depsVersions(d: ToolDeps | undefined): Record<string, string> | undefined {
  if (!d) return undefined;
  const out: Record<string, string> = {};
  for (const r of d.requirements) {
    // env vars have no version; a bin checked for presence only "resolves" to a host path, not a version.
    if (r.kind === 'env' || r.found === null || r.status === 'skipped') continue;
    if (r.kind === 'bin' && r.found.startsWith('/')) continue;
    out[`${r.kind}:${r.name}`] = r.found;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The lock entry of one tool as the registry is now (deps and upstream are added by the caller). */
export function lockEntry(project: Project, entry: ToolEntry): LockEntry {
  const c = entry.contract as unknown as Record<string, unknown>;
  const model: Record<string, string> = {};
  for (const k of MODEL_FIELDS) if (c[k] !== undefined) model[k] = hashValue(c[k]);
  const runs: LockEntry['runs'] = {
    loader: entry.contract.loader,
    loader_config: hashValue(entry.contract.loader_config),
  };
  // Every file the tool's code could load (lock/code.ts), one digest over them all.
  const files = codeFiles(project.root, entry);
  const names = Object.keys(files).filter((k) => !k.endsWith('/'));
  if (names.length) {
    const impl = implementationFile(project, entry);
    runs.implementation = {
      file: impl && existsSync(impl) ? rel(project, impl) : names[0]!,
      sha256: codeDigest(files),
    };
    runs.files = files;
  }
  const requires = requiresOf(project, entry);
  return { model, runs, sandbox: grantOf(entry), ...(requires ? { requires } : {}) };
}

/**
 * What the tool needs installed, in clear (so a review sees a new program): `requires.bins`,
 * `python` and `node` as written; a requirements file by its content hash. The environment
 * variables are in the sandbox grant.
 */
export function requiresOf(project: Project, entry: ToolEntry): Record<string, unknown> | undefined {
  const r = entry.contract.requires;
  if (!r) return undefined;
  const out: Record<string, unknown> = {};
  if (r.bins?.length) out.bins = r.bins.map((b) => (typeof b === 'string' ? b : canonicalJson(b))).sort();
  if (typeof r.python === 'string') {
    const f = resolve(dirname(entry.file), r.python);
    out.python = { file: rel(project, f), sha256: fileSha(f)?.replace('sha256:', '') ?? 'missing' };
  } else if (r.python?.length) out.python = [...r.python].sort();
  if (Array.isArray(r.node) ? r.node.length : r.node && Object.keys(r.node).length)
    out.node = Array.isArray(r.node) ? [...r.node].sort() : r.node;
  return Object.keys(out).length ? out : undefined;
}

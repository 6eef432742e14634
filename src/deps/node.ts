/**
 * Node requirements: find each package the way Node's resolver would from the tool module's
 * folder (node_modules in that folder and every parent, then NODE_PATH), read its version, and
 * compare with `semver`.
 */
import { isBuiltin } from 'node:module';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import type { RequirementResult } from './types.js';
import { mtimeOf, shQuote, type Watch } from './util.js';
import { readRegularHead } from '../util/project-file.js';

/** A declared Node package and range ('*' for any version). */
export interface NodeReq {
  name: string;
  range: string;
}

/** `["lodash@^4", "@scope/x@1"]` or `{ lodash: "^4" }` to a list. */
export function parseNodeRequires(v: string[] | Record<string, string> | undefined): NodeReq[] {
  if (!v) return [];
  if (!Array.isArray(v)) return Object.entries(v).map(([name, range]) => ({ name, range: range || '*' }));
  return v.map((s) => {
    const at = s.indexOf('@', s.startsWith('@') ? 1 : 0);
    return at < 0 ? { name: s, range: '*' } : { name: s.slice(0, at), range: s.slice(at + 1) || '*' };
  });
}

/** The package.json paths Node would try, nearest first. */
function candidates(fromDir: string, name: string, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  let dir = fromDir;
  for (;;) {
    if (basename(dir) !== 'node_modules') out.push(join(dir, 'node_modules', name, 'package.json'));
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const p of (env.NODE_PATH ?? '').split(delimiter)) if (p) out.push(join(p, name, 'package.json'));
  return out;
}

/**
 * Where `npm install` should run so that Node finds the package from `fromDir`: where the wrong
 * version already sits, else the nearest folder with a package.json, else the project root when it
 * encloses the module, else the module's folder.
 */
function installDir(fromDir: string, root: string, foundAt?: string): string {
  if (foundAt) return dirname(foundAt.slice(0, foundAt.lastIndexOf('/node_modules/') + '/node_modules'.length));
  let dir = fromDir;
  for (;;) {
    if (mtimeOf(join(dir, 'package.json')) !== null) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const rel = relative(root, fromDir);
  return rel.startsWith('..') ? fromDir : root;
}

/** Check one package from `fromDir`; `root` is where fix commands are run from. */
export async function checkNodePackage(
  req: NodeReq,
  fromDir: string,
  root: string,
  env: NodeJS.ProcessEnv,
  watch: Watch,
): Promise<RequirementResult> {
  const row: RequirementResult = {
    kind: 'node',
    name: req.name,
    wanted: req.range,
    found: null,
    status: 'ok',
    fix: null,
  };
  if (isBuiltin(req.name)) {
    row.found = 'builtin';
    return row;
  }
  const { default: semver } = await import('semver');
  const spec = req.range === '*' ? req.name : `${req.name}@${req.range}`;
  const fixAt = (foundAt?: string) => {
    const at = installDir(fromDir, root, foundAt);
    const rel = relative(root, at);
    return `npm install${rel ? ` --prefix ${shQuote(rel.startsWith('..') ? at : rel)}` : ''} ${shQuote(spec)}`;
  };
  if (req.range !== '*' && !semver.validRange(req.range)) {
    return {
      ...row,
      status: 'error',
      detail: `'${req.range}' is not a semver range`,
      fix: `fix requires.node: use a range such as '^1.2'`,
    };
  }
  for (const pkg of candidates(fromDir, req.name, env)) {
    const m = mtimeOf(pkg);
    watch.set(pkg, m);
    if (m === null) continue;
    let version: string | undefined;
    try {
      // A regular file, bounded (a package.json linked to a FIFO or /dev/zero must not hang the check);
      // only a real version is ever shown.
      const v = (JSON.parse(readRegularHead(pkg, 1024 * 1024)?.toString('utf8') ?? '') as { version?: unknown })
        .version;
      version = typeof v === 'string' && semver.valid(v) ? v : undefined;
    } catch {
      /* unreadable package.json: Node would fail too */
    }
    row.found = version ?? 'unknown';
    if (!version || !semver.satisfies(version, req.range, { includePrerelease: true }))
      return { ...row, status: 'wrong_version', fix: fixAt(pkg) };
    return row;
  }
  return { ...row, status: 'missing', fix: fixAt() };
}

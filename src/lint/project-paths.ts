// validate's `project-path` rule: a contract key that names a project file toolbox reads on the host
// (a requirements file) or loads (a node_module tool's module) must stay inside the project after
// every link and never name a credential file; a requirements file must be named like one. run
// refuses such a file unread (util/project-file.ts); validate says where, at the key's line:column.
import { dirname, resolve } from 'node:path';
import type { PathSeg } from '../contract/yaml-source.js';
import type { ToolContract } from '../contract/types.js';
import { namesRequirementsFile, REQUIREMENTS_NAME } from '../deps/requirements-txt.js';
import { realOrUndefined } from '../util/binds.js';
import { insideRel } from '../util/paths.js';
import { secretIn } from '../util/secret-names.js';

/** One key whose path leaves the project (or names a credential, or is not a requirements file). */
export interface ProjectPathProblem {
  path: PathSeg[];
  message: string;
  hint: string;
}

const HINT = 'Name a file inside the project (not a link out of it, not a credential file such as .env or .npmrc).';

/** Why `abs` may not be read as a project file, or undefined. */
function why(root: string, abs: string): string | undefined {
  const realRoot = realOrUndefined(root) ?? root;
  const named = insideRel(root, abs) ?? insideRel(realRoot, abs);
  if (named === undefined) return 'is outside the project';
  const real = realOrUndefined(abs);
  const rel = real === undefined ? named : insideRel(realRoot, real);
  if (rel === undefined) return `is a link out of the project (to ${real})`;
  const secret = secretIn(named) ?? secretIn(rel);
  if (secret) return `is a credential file (${secret})`;
  return undefined;
}

/** The requirements files `requires.python` names: the string form, and `-r`/`-c` items of the list form. */
function requirementsFiles(c: ToolContract, contractDir: string): { path: PathSeg[]; file: string }[] {
  const py = c.requires?.python;
  if (typeof py === 'string')
    return namesRequirementsFile(py, contractDir) ? [{ path: ['requires', 'python'], file: py }] : [];
  const out: { path: PathSeg[]; file: string }[] = [];
  (py ?? []).forEach((item, i) => {
    const m = /^\s*(?:-r|--requirement|-c|--constraint)(?:\s+|=)(.+)$/.exec(item);
    if (m) out.push({ path: ['requires', 'python', i], file: m[1]!.trim() });
  });
  return out;
}

/** The keys of contract `c` (in `contractFile`) that name a path leaving the project `root`. */
export function projectPathProblems(root: string, contractFile: string, c: ToolContract): ProjectPathProblem[] {
  const out: ProjectPathProblem[] = [];
  const contractDir = dirname(contractFile);
  for (const r of requirementsFiles(c, contractDir)) {
    const abs = resolve(contractDir, r.file);
    const bad = why(root, abs) ?? (REQUIREMENTS_NAME.test(abs) ? undefined : 'is not named like a requirements file');
    if (bad)
      out.push({
        path: r.path,
        message: `requirements file '${r.file}' ${bad}: toolbox does not read it`,
        hint: `${HINT} A requirements file is named *.txt or *.in.`,
      });
  }
  const lc = c.loader_config as Record<string, unknown> | undefined;
  if (c.loader === 'node_module' && typeof lc?.module === 'string') {
    const bad = why(root, resolve(root, lc.module));
    if (bad)
      out.push({
        path: ['loader_config', 'module'],
        message: `module '${lc.module}' ${bad}: run refuses it`,
        hint: HINT,
      });
  }
  return out;
}

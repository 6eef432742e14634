/**
 * The dependency check of a set of tools: cached results where nothing changed; for the rest, one
 * checker run per Python interpreter (all tools' lines at once), Node/PATH/env lookups in process.
 */
import { join } from 'node:path';
import { displayPath } from '../util/paths.js';
import { PROJECT_BIN_DIRS } from '../util/which.js';
import type { Project } from '../config.js';
import type { ToolEntry } from '../contract/types.js';
import { checkBin } from './bins.js';
import { cachedResult, envSet, makeFingerprint, readDepsCache, writeDepsCache, type Fingerprint } from './cache.js';
import { collect, type Declared } from './collect.js';
import { resolvePython, type Interpreter } from './interpreter.js';
import { checkNodePackage } from './node.js';
import { judgeLine, runChecker, type CheckerReport } from './python.js';
import type { PyLine } from './requirements-txt.js';
import { isProblem, type CheckOptions, type RequirementResult, type ToolDeps } from './types.js';
import { watchFile, type Watch } from './util.js';

interface Pending {
  entry: ToolEntry;
  decl: Declared;
  watch: Watch;
  py?: Interpreter;
}

/** Check `entries` (in order). Never throws for a missing dependency: that is a result. */
export async function checkDeps(project: Project, entries: ToolEntry[], opts: CheckOptions = {}): Promise<ToolDeps[]> {
  const env = opts.env ?? process.env;
  const useCache = opts.cache !== false;
  const cache = useCache ? readDepsCache(project) : undefined;
  const out = new Map<string, ToolDeps>();
  const pending: Pending[] = [];
  for (const entry of entries) {
    const hit = cache && cachedResult(cache, entry, env);
    if (hit) out.set(entry.contract.id, hit);
    else pending.push({ entry, decl: collect(project, entry), watch: new Map() });
  }

  // One checker run per interpreter, for every line of every pending tool that uses it.
  const byPython = new Map<string, { py: Interpreter; lines: Map<string, PyLine> }>();
  for (const p of pending) {
    if (!p.decl.needsPython) continue;
    for (const f of p.decl.python.files) watchFile(p.watch, f);
    p.py = resolvePython(project, p.entry, env, { watch: p.watch });
    if (!p.py.exists || p.decl.python.lines.length === 0) continue;
    const group = byPython.get(p.py.command) ?? { py: p.py, lines: new Map() };
    for (const l of p.decl.python.lines) group.lines.set(l.line, l);
    byPython.set(p.py.command, group);
  }
  const reports = new Map<string, { report?: CheckerReport; error?: string; index: Map<string, number> }>();
  await Promise.all(
    [...byPython].map(async ([cmd, g]) => {
      const lines = [...g.lines.values()];
      const index = new Map(lines.map((l, i) => [l.line, i]));
      try {
        reports.set(cmd, { report: await runChecker(cmd, lines), index });
      } catch (e) {
        reports.set(cmd, { error: (e as Error).message, index });
      }
    }),
  );

  const updates: { fp: Fingerprint; result: ToolDeps }[] = [];
  await Promise.all(
    pending.map(async (p) => {
      const result = await assemble(project, p, reports, env);
      out.set(p.entry.contract.id, result);
      const fp = makeFingerprint(p.entry, env, p.decl.env, p.watch);
      // A check that itself failed (the checker crashed) is not worth remembering.
      if (fp && !result.requirements.some((r) => r.status === 'error' && r.detail?.startsWith('cannot run')))
        updates.push({ fp, result });
    }),
  );
  if (useCache) writeDepsCache(project, updates);
  return entries.map((e) => out.get(e.contract.id)!);
}

async function assemble(
  project: Project,
  p: Pending,
  reports: Map<string, { report?: CheckerReport; error?: string; index: Map<string, number> }>,
  env: NodeJS.ProcessEnv,
): Promise<ToolDeps> {
  const rel = (f: string) => displayPath(f, project.root);
  const rows: RequirementResult[] = [];
  const { decl, py } = p;
  if (py) {
    const rep = reports.get(py.command);
    const spec = decl.python.lines.find((l) => l.name.toLowerCase() === 'python');
    if (!py.exists) {
      rows.push({
        kind: 'python',
        name: 'python',
        wanted: spec?.raw ?? '*',
        found: null,
        status: 'missing',
        fix:
          py.source !== 'config' || py.command === py.configured
            ? `install ${py.display} (apt-get install python3) or set loader_config.python`
            : `python3 -m venv ${py.configured!.replace(/\/bin\/python[\d.]*$/, '')}`,
        detail: `interpreter ${py.command} not found`,
      });
    } else if (rep?.report) {
      for (const d of rep.report.paths) watchFile(p.watch, d);
      watchFile(p.watch, rep.report.executable);
      if (!spec)
        rows.push({ kind: 'python', name: 'python', wanted: '*', found: rep.report.version, status: 'ok', fix: null });
      for (const l of decl.python.lines)
        rows.push(judgeLine(l, rep.report.results[rep.index.get(l.line)!], rep.report, py, rel));
    } else if (rep?.error) {
      rows.push({
        kind: 'python',
        name: 'python',
        wanted: spec?.raw ?? '*',
        found: py.command,
        status: 'error',
        fix: `check that ${py.display} runs`,
        detail: rep.error,
      });
    } else {
      rows.push({ kind: 'python', name: 'python', wanted: '*', found: py.command, status: 'ok', fix: null });
    }
    for (const prob of decl.python.problems) {
      rows.push({
        kind: 'python',
        name: prob.raw,
        wanted: prob.raw,
        found: null,
        status: 'error',
        fix: `fix requires.python in ${rel(p.entry.file)}${prob.file ? ` or ${rel(prob.file)}` : ''}`,
        detail: prob.message,
      });
    }
  }
  for (const n of decl.node) rows.push(await checkNodePackage(n, decl.nodeFrom, project.root, env, p.watch));
  // A bare server command that appears in the project later (npm install) must invalidate a cached "missing".
  const lc = p.entry.contract.loader_config;
  if (p.entry.contract.loader === 'mcp' && typeof lc.command === 'string' && !lc.command.includes('/'))
    for (const dir of PROJECT_BIN_DIRS) watchFile(p.watch, join(project.root, dir, lc.command));
  rows.push(...(await Promise.all(decl.bins.map((b) => checkBin(b, project.root, env, p.watch)))));
  for (const name of decl.env) {
    const set = envSet(env, name);
    rows.push({
      kind: 'env',
      name,
      wanted: 'set',
      found: set ? 'set' : null,
      status: set ? 'ok' : 'missing',
      fix: set ? null : `export ${name}=…`,
    });
  }
  const result: ToolDeps = { id: p.entry.contract.id, ok: !rows.some(isProblem), requirements: rows };
  if (py) result.interpreter = py.command;
  return result;
}

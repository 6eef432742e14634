// `toolbox eval --compare <git ref | saved result>`: the labelled queries ranked on two versions of
// a registry, and every query whose first tool or R@5 changed, with the contract changes that can
// have caused it (the changed contracts among the tools the query had or now has in its top 5, or
// wants). A gate for description edits: fixing one query often breaks others.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Project } from '../config.js';
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { exportTree, git } from '../util/git.js';
import type { Metrics } from './metrics.js';

/** One labelled query and what the ranker returned for it (the top `top` ids). */
export interface EvalQuery {
  line: number;
  query: string;
  relevant: string[];
  ranked: string[];
  source: 'cases' | 'example';
  /** The cases file it came from (when eval was given several, each query keeps its own). */
  file?: string;
}

/** Per tool, a short hash of each field that selection reads. */
export type ToolPrints = Record<string, Record<string, string>>;

const FIELDS = ['name', 'description', 'schema', 'examples', 'tags', 'provider'] as const;
const h = (v: unknown) =>
  createHash('sha1')
    .update(JSON.stringify(v ?? null))
    .digest('hex')
    .slice(0, 12);

/** The fingerprints of a registry's contracts (saved with `eval --json` so a later compare can attribute changes). */
export function toolPrints(contracts: readonly ToolContract[]): ToolPrints {
  const out: ToolPrints = {};
  for (const c of contracts) {
    const rec = c as unknown as Record<string, unknown>;
    out[c.id] = Object.fromEntries(FIELDS.map((f) => [f, h(rec[f])]));
  }
  return out;
}

/** How one tool differs between the base and the current registry. */
export function toolChange(base: ToolPrints, now: ToolPrints, id: string): string | undefined {
  const a = base[id];
  const b = now[id];
  if (!a && !b) return undefined;
  if (!a) return 'added';
  if (!b) return 'removed';
  const fields = FIELDS.filter((f) => a[f] !== b[f]);
  return fields.length ? `${fields.join(', ')} changed` : undefined;
}

/** One query whose outcome changed. */
export interface QueryChange {
  /** The cases file it came from (absent for a contract's example). */
  file?: string;
  line: number;
  query: string;
  source: EvalQuery['source'];
  relevant: string[];
  before: { top1: string | null; r5: number };
  after: { top1: string | null; r5: number };
  /** worse: the first tool stopped being relevant or R@5 fell; better: the reverse; moved: neither. */
  verdict: 'worse' | 'better' | 'moved';
  /** Changed contracts among the tools involved, e.g. "query_weather: description changed". */
  causes: string[];
}

const r5 = (ranked: string[], relevant: string[]) =>
  new Set(ranked.slice(0, 5).filter((id) => relevant.includes(id))).size / relevant.length;

/** The queries whose first tool or R@5 changed between two evaluations (matched by query text and source). */
export function compareRuns(
  base: { results: EvalQuery[]; tools: ToolPrints },
  now: { results: EvalQuery[]; tools: ToolPrints },
): QueryChange[] {
  const key = (q: EvalQuery) => `${q.source}\n${q.query}\n${[...q.relevant].sort().join(',')}`;
  const before = new Map(base.results.map((q) => [key(q), q]));
  const out: QueryChange[] = [];
  for (const q of now.results) {
    const b = before.get(key(q));
    if (!b) continue;
    const t0 = b.ranked[0] ?? null;
    const t1 = q.ranked[0] ?? null;
    const b5 = r5(b.ranked, q.relevant);
    const a5 = r5(q.ranked, q.relevant);
    if (t0 === t1 && b5 === a5) continue;
    const hit0 = t0 !== null && q.relevant.includes(t0);
    const hit1 = t1 !== null && q.relevant.includes(t1);
    const verdict = (hit0 && !hit1) || a5 < b5 ? 'worse' : (!hit0 && hit1) || a5 > b5 ? 'better' : 'moved';
    const involved = [...new Set([...q.relevant, ...b.ranked.slice(0, 5), ...q.ranked.slice(0, 5)])];
    const causes = involved.flatMap((id) => {
      const c = toolChange(base.tools, now.tools, id);
      return c ? [`${id}: ${c}`] : [];
    });
    out.push({
      ...(q.file ? { file: q.file } : {}),
      line: q.line,
      query: q.query,
      source: q.source,
      relevant: q.relevant,
      before: { top1: t0, r5: b5 },
      after: { top1: t1, r5: a5 },
      verdict,
      causes,
    });
  }
  return out;
}

/** A saved `eval --json` document, or undefined when `file` is not one. */
export function readSavedEval(
  file: string,
): { results: EvalQuery[]; tools: ToolPrints; metrics?: Metrics } | undefined {
  if (!existsSync(file)) return undefined;
  let doc: { results?: EvalQuery[]; tools?: ToolPrints; metrics?: Metrics };
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as typeof doc;
  } catch (e) {
    throw new ToolboxError('invalid_compare', `${file} is not a saved eval result: ${(e as Error).message}`, {
      exitCode: ExitCode.usage,
      hint: 'Save one with: toolbox eval cases.jsonl --json > before.json',
    });
  }
  if (!Array.isArray(doc.results) || !doc.tools)
    throw new ToolboxError('invalid_compare', `${file} is not a saved eval result (no "results"/"tools")`, {
      exitCode: ExitCode.usage,
      hint: 'Save one with: toolbox eval cases.jsonl --json > before.json (toolbox ≥ this version)',
    });
  return { results: doc.results, tools: doc.tools, metrics: doc.metrics };
}

/**
 * The project's registry as it was at git `ref`, written into a temp folder (with its own state
 * folder, so caches of the working tree are not touched). `cleanup` removes it. git runs hardened
 * (util/git.ts): the repository's own config cannot make it start anything.
 */
export async function registryAtRef(project: Project, ref: string): Promise<{ project: Project; cleanup: () => void }> {
  const fail = (why: string): never => {
    throw new ToolboxError('invalid_compare', `--compare ${ref}: ${why}`, {
      exitCode: ExitCode.usage,
      hint: 'Pass a git ref (HEAD, main, a commit) of the repository that holds the registry, or a file saved with eval --json.',
    });
  };
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: project.registryDir });
  if (top.code === null) fail(`not a saved result file, and git could not run: ${top.error ?? 'no git'}`);
  if (top.code !== 0) fail('not a saved result file, and the registry is not in a git repository');
  const root = top.stdout.trim();
  const ok = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd: root });
  if (ok.code !== 0) fail('no such file or git ref');
  const rel = relative(root, project.registryDir).split(sep).join('/') || '.';
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-compare-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let n = 0;
  try {
    n = await exportTree(root, ok.stdout.trim(), rel, dir);
  } catch (e) {
    cleanup();
    fail((e as Error).message);
  }
  if (n === 0) {
    cleanup();
    fail(`the registry folder ${rel} is not in ${ref}`);
  }
  return {
    project: { ...project, registryDir: join(dir, rel), stateDir: join(dir, '.toolbox'), root: project.root },
    cleanup,
  };
}

/**
 * Python requirements: one checker run per interpreter for every line of every tool, then a
 * verdict per line, by `packaging` inside the interpreter or, without it, by @renovatebot/pep440
 * here with markers evaluated against the interpreter's reported environment.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { codePath } from '../util/assets.js';
import type { Interpreter } from './interpreter.js';
import { evaluateMarker, parsePep508, specifierContains } from './pep508.js';
import type { PyLine } from './requirements-txt.js';
import type { RequirementResult } from './types.js';
import { shQuote } from './util.js';

/** What the checker reports for one line. */
interface LineReport {
  name: string | null;
  installed: string | null;
  marker: boolean | null;
  satisfied: boolean | null;
  specifier: string | null;
  error: string | null;
}

/** What the checker reports about an interpreter, plus its verdict per line. */
export interface CheckerReport {
  executable: string;
  version: string;
  packaging: string | null;
  has_pip: boolean;
  has_venv: boolean;
  env: Record<string, string>;
  /** sys.path folders: installing a package changes one of their mtimes. */
  paths: string[];
  results: LineReport[];
}

const CHECKER = codePath('deps', 'checker.py');

/**
 * Run the checker once with all `lines` (deduplicated by the caller), inside the sandbox: the
 * interpreter may be a project's venv, and starting Python there runs its site-packages' .pth files.
 * It sees what the tool will see (the interpreter's prefix, not the network or the user's site).
 * Throws a readable Error.
 */
export async function runChecker(python: string, lines: PyLine[]): Promise<CheckerReport> {
  const input = JSON.stringify({ reqs: lines.map((l) => ({ line: l.line, name: l.name })) });
  const { resolveInterpreter, runSandboxed, DEFAULT_LIMITS } = await import('../sandbox/index.js');
  let interp;
  try {
    interp = await resolveInterpreter(python);
  } catch (e) {
    throw new Error(`cannot run ${python}: ${(e as Error).message}`, { cause: e });
  }
  const venv = dirname(dirname(python));
  const r = await runSandboxed({
    command: interp.path,
    args: ['-B', CHECKER],
    env: { PYTHONUTF8: '1', PYTHONDONTWRITEBYTECODE: '1' },
    readOnlyPaths: [dirname(CHECKER), ...interp.readOnlyPaths, ...(existsSync(join(venv, 'pyvenv.cfg')) ? [venv] : [])],
    network: false,
    limits: { ...DEFAULT_LIMITS, timeoutMs: 60_000 },
    stdin: input,
  });
  if (r.exitCode === 0) {
    try {
      return JSON.parse(r.stdout) as CheckerReport;
    } catch {
      /* reported below */
    }
  }
  const why = r.limit ? `stopped: ${r.limit}` : r.stderr.trim().split('\n').pop() || `exit ${r.exitCode ?? r.signal}`;
  throw new Error(`cannot run ${python}: ${why}`);
}

/** A fix command for Python requirement `l` with interpreter `py`. */
export function pipFix(py: Interpreter, l: PyLine, rel: (p: string) => string): string {
  const pip = `${shQuote(py.display)} -m pip install`;
  if (l.file) return `${pip} -r ${shQuote(rel(l.file))}`;
  if (l.localPath) return `${pip} ${shQuote(rel(l.localPath))}`;
  return `${pip} ${shQuote(l.line)}`;
}

/** Turn the checker's answer for `l` into a result row. */
export function judgeLine(
  l: PyLine,
  r: LineReport | undefined,
  report: CheckerReport,
  py: Interpreter,
  rel: (p: string) => string,
): RequirementResult {
  const row: RequirementResult = { kind: 'python', name: l.name, wanted: l.raw, found: null, status: 'ok', fix: null };
  const isPython = l.name.toLowerCase() === 'python';
  const fail = (status: RequirementResult['status'], detail?: string): RequirementResult => {
    row.status = status;
    row.fix = isPython ? `set loader_config.python to a Python that satisfies '${l.raw}'` : pipFix(py, l, rel);
    if (detail) row.detail = detail;
    return row;
  };
  if (!r) return fail('error', 'no answer from the checker');
  if (r.error) return fail('error', r.error);
  if (r.name) row.name = r.name;
  let marker = r.marker;
  let satisfied = r.satisfied;
  if (!report.packaging) {
    // Fallback: the interpreter has neither packaging nor pip; decide here.
    const p = parsePep508(l.line);
    try {
      marker = p?.marker ? evaluateMarker(p.marker, report.env) : null;
    } catch (e) {
      return fail('error', `cannot evaluate marker: ${(e as Error).message}`);
    }
    satisfied = r.installed ? (specifierContains(r.installed, p?.specifier ?? '') ?? null) : null;
  }
  if (marker === false) {
    row.status = 'skipped';
    row.detail = `not needed here: its marker is false for Python ${report.version} on ${report.env.sys_platform}`;
    return row;
  }
  row.found = r.installed;
  if (!r.installed) return fail('missing');
  if (satisfied === false) return fail('wrong_version');
  if (satisfied === null && !l.localPath) return fail('error', `cannot compare version ${r.installed}`);
  return row;
}

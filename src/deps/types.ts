/** Result types of the dependency check (`toolbox deps`, `doctor`, and the check before `run`). */

/** What kind of thing a requirement is. */
export type DepKind = 'python' | 'node' | 'bin' | 'env';

/**
 * ok: present and the version fits; missing: not there; wrong_version: there, version does not fit;
 * skipped: its PEP 508 marker excludes it on this interpreter; error: could not be checked (why in `detail`).
 */
export type DepStatus = 'ok' | 'missing' | 'wrong_version' | 'skipped' | 'error';

/** One requirement of one tool and how this machine meets it. Never holds an env var's value. */
export interface RequirementResult {
  kind: DepKind;
  name: string;
  /** The declared range / specifier / line ('*' for presence only). */
  wanted: string;
  /** The version found (or path for an interpreter / 'set' for env vars); null when missing. */
  found: string | null;
  status: DepStatus;
  /** A command that would fix it; null when ok / skipped. */
  fix: string | null;
  /** Extra explanation (why skipped, why it could not be checked). */
  detail?: string;
}

/** The dependency report of one tool. */
export interface ToolDeps {
  id: string;
  /** True when nothing is missing, of the wrong version, or uncheckable. */
  ok: boolean;
  requirements: RequirementResult[];
  /** The Python interpreter its requirements were checked against (python tools only). */
  interpreter?: string;
  /** True when the result came from .toolbox/cache/deps.json. */
  cached?: boolean;
}

/** Options of a check. `env` is the environment the tool would see (default process.env). */
export interface CheckOptions {
  env?: NodeJS.ProcessEnv;
  /** Use and update .toolbox/cache/deps.json (default true). */
  cache?: boolean;
}

export const isProblem = (r: RequirementResult): boolean =>
  r.status === 'missing' || r.status === 'wrong_version' || r.status === 'error';

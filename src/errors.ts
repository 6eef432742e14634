/**
 * Exit codes used by every command. Documented in README ("Exit codes").
 */
export const ExitCode = {
  ok: 0,
  findings: 1,
  usage: 2,
  registry: 3,
  toolFailed: 4,
  limit: 5,
  missingDeps: 6,
  permission: 7,
  internal: 70,
  output: 74,
  daemonLost: 75,
  cancelled: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What each exit code means: the one source of the table in every command's --help, and equal to
 * README's "Exit codes" table (a test compares all three).
 */
export const EXIT_MEANINGS: Readonly<Record<ExitCodeValue, string>> = {
  0: 'ok',
  1: 'findings (validate, deps, doctor; eval below --min or a regression under --fail-on-regression)',
  2: 'usage error: bad flag, unknown tool, arguments that fail the schema',
  3: 'broken registry or config',
  4: 'the tool failed (or its circuit breaker is open)',
  5: 'the tool timed out or hit a resource limit (the message names which)',
  6: 'missing dependencies',
  7: 'permission denied',
  70: 'internal error (a bug in toolbox; --verbose shows the stack)',
  74: 'the output could not be written (disk full, or stdout/stderr closed or broken)',
  75: 'the daemon went away during a call (not retried: the tool may have run)',
  130: 'cancelled (Ctrl+C)',
};

/** The exit-code table as printed after --help. */
export function exitCodeTable(): string {
  const rows = Object.entries(EXIT_MEANINGS).map(([code, meaning]) => `  ${code.padEnd(4)} ${meaning}`);
  return `\nExit codes:\n${rows.join('\n')}`;
}

/** Where in which file a problem is. Lines and columns are 1-based. */
export interface Location {
  file: string;
  line?: number;
  column?: number;
}

/**
 * An error the user can act on: a stable snake_case `code`, a human message, an optional hint
 * (what to do next) and the exit code the CLI should end with. Core code throws these; only
 * src/main.ts turns them into output.
 */
export class ToolboxError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint?: string;
  readonly location?: Location;
  /** Extra machine-readable facts (never secret values), copied into the JSON error envelope. */
  readonly details?: Record<string, unknown>;
  /**
   * What only the user at a terminal is shown (a project file's own lines: a code frame): never in
   * `message`, the JSON envelope, serve's results or the library's tool message, which reach callers and models.
   */
  readonly terminal?: string;

  constructor(
    code: string,
    message: string,
    opts: {
      exitCode?: number;
      hint?: string;
      location?: Location;
      details?: Record<string, unknown>;
      terminal?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ToolboxError';
    this.code = code;
    this.exitCode = opts.exitCode ?? ExitCode.usage;
    this.hint = opts.hint;
    this.location = opts.location;
    this.details = opts.details;
    this.terminal = opts.terminal;
  }
}

/** "The user was already told; exit with this code." Carries no message of its own. */
export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'ExitError';
    this.exitCode = exitCode;
  }
}

/** A bug in toolbox itself, not in the user's input. */
export class InternalError extends Error {
  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'InternalError';
  }
}

export function usageError(
  code: string,
  message: string,
  hint?: string,
  details?: Record<string, unknown>,
): ToolboxError {
  return new ToolboxError(code, message, { exitCode: ExitCode.usage, hint, details });
}

/** Edit distance counting a swap of two neighbouring letters as one edit ('emial' → 'email'). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Up to `max` candidates closest to `input`: substring matches first, then by edit distance to the
 * whole candidate or to one of its words (so 'wether' finds 'query_weather').
 */
export function closest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = input.toLowerCase().replace(/^-+/, '');
  if (!lower) return [];
  const scored: { c: string; d: number }[] = [];
  const near = (a: string, b: string) => {
    const d = editDistance(a, b);
    return d <= Math.max(1, Math.min(3, Math.floor(Math.max(a.length, b.length) / 3))) ? d : Infinity;
  };
  for (const c of candidates) {
    const cl = c.toLowerCase().replace(/^-+/, '');
    let d = lower.length >= 3 && (cl.includes(lower) || lower.includes(cl)) ? 0 : near(lower, cl);
    for (const part of cl.split(/[_.\-\s]+/)) if (part.length > 2) d = Math.min(d, near(lower, part) + 0.5);
    if (d !== Infinity) scored.push({ c, d });
  }
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

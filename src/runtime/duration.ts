import { ExitCode, ToolboxError } from '../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a duration: a number of seconds (30, 1.5) or a string with a unit
 * ('500ms', '10s', '2m', '1h'; no unit = seconds). Throws invalid_duration (exit 2).
 */
export function parseDuration(value: number | string, what = 'duration'): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value * 1000);
  const m = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value) : null;
  const ms = m ? Math.round(Number(m[1]) * UNITS[(m[2] ?? 's').toLowerCase()]!) : NaN;
  if (!(ms > 0)) {
    throw new ToolboxError('invalid_duration', `${what}: expected seconds or a duration such as 500ms, 10s, 2m; got '${String(value)}'.`, { exitCode: ExitCode.usage });
  }
  return ms;
}

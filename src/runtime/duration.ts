import { ExitCode, ToolboxError } from '../errors.js';
import { parseDuration } from '../util/duration.js';

/**
 * Milliseconds of a user-given duration (the `--timeout` flag): what parseDuration reads, or a
 * usage error. Throws invalid_duration (exit 2) naming `what`.
 */
export function requireDuration(value: number | string, what = 'duration'): number {
  const ms = parseDuration(value);
  if (ms === undefined) {
    throw new ToolboxError(
      'invalid_duration',
      `${what}: expected seconds or a duration such as 500ms, 10s, 2m; got '${String(value)}'.`,
      { exitCode: ExitCode.usage },
    );
  }
  return ms;
}

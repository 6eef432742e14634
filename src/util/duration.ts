// Reading durations ('500ms', '10s', '2m'): one parser for contracts, the config file and --timeout.
// Dependency-free so that the config schema and commands can import it at no cost.

const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000, '': 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * Milliseconds from a number (seconds) or a string such as '500ms', '10s', '2m', '2min', '1h',
 * '1.5' (no unit = seconds). Returns undefined when the value cannot be read or is not > 0 ms.
 */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value > 0 ? positive(Math.round(value * 1000)) : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? TIME_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  return positive(Math.round(Number(m[1]) * unit));
}

const positive = (ms: number) => (ms > 0 ? ms : undefined);

import type { ToolboxConfig } from '../config.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { readStateText, writeState } from '../util/state.js';

/** Breaker thresholds, from `runtime.breaker` in toolbox.config.yaml (window and cooldown in seconds there). */
export interface BreakerSettings {
  failures: number;
  windowMs: number;
  cooldownMs: number;
}

/** What the breaker remembers of one tool in .toolbox/breaker.json. Times are epoch ms. */
export interface BreakerRecord {
  /** Failure times inside the current window. */
  failures: number[];
  /** Open (refusing calls) until this time; after it, one trial call is let through (half-open). */
  openUntil?: number;
  /** When the half-open trial call started (others are refused while it runs). */
  trialAt?: number;
}

export type BreakerState = 'closed' | 'open' | 'half_open';

/** One tool's breaker as shown by `toolbox stats`. */
export interface BreakerStatus {
  state: BreakerState;
  recentFailures: number;
  reopensAt?: string;
}

export function breakerSettings(config: ToolboxConfig): BreakerSettings {
  const b = config.runtime?.breaker ?? {};
  const pos = (v: unknown, d: number) => (typeof v === 'number' && v > 0 ? v : d);
  return {
    failures: Math.round(pos(b.failures, 5)),
    windowMs: pos(b.window, 60) * 1000,
    cooldownMs: pos(b.cooldown, 30) * 1000,
  };
}

/** The breaker's state file in .toolbox/. */
export const BREAKER_FILE = 'breaker.json';

/**
 * A circuit breaker per tool, persisted so that separate CLI processes share it. After
 * `failures` failures within `window`, the tool is refused for `cooldown`; then one trial call is
 * allowed: success closes the circuit, failure opens it again. Every change re-reads the file and
 * replaces only that tool's record (atomic rename), so concurrent processes do not corrupt it; a
 * corrupt or unreadable file counts as "all closed".
 */
export class Breaker {
  constructor(
    private readonly stateDir: string,
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws `state_unsafe` for a planted breaker.json (a link, another user's file). */
  private read(): Record<string, BreakerRecord> {
    const text = readStateText(this.stateDir, BREAKER_FILE);
    try {
      const v = JSON.parse(text ?? '{}') as { tools?: Record<string, BreakerRecord> };
      return v && typeof v.tools === 'object' && v.tools ? v.tools : {};
    } catch {
      return {};
    }
  }

  private update(id: string, fn: (r: BreakerRecord | undefined) => BreakerRecord | undefined): void {
    const tools = this.read();
    const next = fn(tools[id]);
    if (next) tools[id] = next;
    else if (id in tools) delete tools[id];
    else return;
    try {
      writeState(this.stateDir, BREAKER_FILE, JSON.stringify({ version: 1, tools }, null, 1));
    } catch {
      // A read-only project still runs tools; it only loses the breaker's memory.
    }
  }

  /** The state of one tool now. */
  status(id: string, rec: BreakerRecord | undefined = this.read()[id]): BreakerStatus {
    const t = this.now();
    const recent = (rec?.failures ?? []).filter((f) => t - f < this.settings.windowMs).length;
    if (!rec?.openUntil) return { state: 'closed', recentFailures: recent };
    const reopensAt = new Date(rec.openUntil).toISOString();
    return t < rec.openUntil
      ? { state: 'open', recentFailures: recent, reopensAt }
      : { state: 'half_open', recentFailures: recent, reopensAt };
  }

  /** Every tool the breaker has a record of. */
  all(): Record<string, BreakerStatus> {
    const tools = this.read();
    return Object.fromEntries(Object.entries(tools).map(([id, r]) => [id, this.status(id, r)]));
  }

  /** Throw circuit_open (exit 4) while the tool is refused; mark the half-open trial when it starts. */
  check(id: string): void {
    const rec = this.read()[id];
    if (!rec?.openUntil) return;
    const t = this.now();
    const trialRunning = rec.trialAt !== undefined && t - rec.trialAt < this.settings.cooldownMs;
    if (t >= rec.openUntil && !trialRunning) {
      this.update(id, (r) => ({ ...(r ?? { failures: [] }), trialAt: t }));
      return;
    }
    const until = t < rec.openUntil ? rec.openUntil : rec.trialAt! + this.settings.cooldownMs;
    throw circuitOpen(id, until, t, t >= rec.openUntil, this.settings);
  }

  /** A call succeeded: the circuit closes and the failure count starts again. */
  success(id: string): void {
    this.update(id, () => undefined);
  }

  /** A call failed (tool error, timeout, limit): count it; open the circuit at the threshold. */
  failure(id: string): void {
    const t = this.now();
    this.update(id, (r) => afterFailure(r, t, this.settings));
  }
}

/**
 * The refusal of a call while a tool's circuit is open (`trial`: its one trial call after the
 * cool-down is running, here or in another replica) until `until`, seen at time `t`.
 */
export function circuitOpen(
  id: string,
  until: number,
  t: number,
  trial: boolean,
  settings: BreakerSettings,
): ToolboxError {
  const secs = Math.max(1, Math.ceil((until - t) / 1000));
  const why = trial
    ? 'a trial call after its cool-down is still running'
    : `it failed ${settings.failures} times within ${settings.windowMs / 1000} s`;
  return new ToolboxError(
    'circuit_open',
    `tool '${id}' is temporarily refused: ${why}. It reopens at ${new Date(until).toISOString()} (in ${secs} s).`,
    {
      exitCode: ExitCode.toolFailed,
      hint: 'Wait for the cool-down, fix the tool, or delete .toolbox/breaker.json to reset it (thresholds: runtime.breaker in toolbox.config.yaml).',
      details: { reopensAt: new Date(until).toISOString(), retryAfterSeconds: secs },
    },
  );
}

/**
 * A tool's breaker record after a failure at time `t`: a failed half-open trial opens it again, and
 * the `failures`-th failure within the window opens it. Pure, so the call log can be replayed
 * through it (`stats --report` shows when breakers opened).
 */
export function afterFailure(r: BreakerRecord | undefined, t: number, settings: BreakerSettings): BreakerRecord {
  if (r?.openUntil && t >= r.openUntil) return { failures: [], openUntil: t + settings.cooldownMs };
  const failures = [...(r?.failures ?? []).filter((f) => t - f < settings.windowMs), t];
  if (failures.length >= settings.failures) return { failures: [], openUntil: t + settings.cooldownMs };
  return { ...r, failures };
}

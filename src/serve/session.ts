// A 2025-11-25 client's session (HTTP Mcp-Session-Id, or a stdio connection that opened with
// initialize): what search_tools found for it, and the logging level it set. Kept here and written
// through to the ServeStore under `session:<id>`, so the state is not tied to this process.
import { ExitCode, ToolboxError } from '../errors.js';
import { LOG_LEVELS, type LogLevel } from '../loaders/types.js';
import type { ServeStore } from './store.js';

/** Tools search_tools adds to a session's list: the most recently found, at most this many. */
export const MAX_FOUND = 20;

interface SessionRecord {
  found: string[];
  level?: LogLevel;
}

/**
 * Add `ids` to the found set as the most recent, dropping the oldest past `max`. Returns whether
 * the set's members changed (then the client is sent list_changed).
 */
export function addFound(found: Set<string>, ids: string[], max = MAX_FOUND): boolean {
  const before = [...found].sort().join('\n');
  for (const id of ids) {
    found.delete(id); // re-inserted last: a Set keeps insertion order, oldest first
    found.add(id);
  }
  for (const oldest of found) {
    if (found.size <= max) break;
    found.delete(oldest);
  }
  return [...found].sort().join('\n') !== before;
}

export class LegacySession {
  readonly found = new Set<string>();
  /** Aborted when the session ends: its calls in flight stop and answer `session_closed`. */
  readonly ended = new AbortController();
  /** Unset until the client sends logging/setLevel: until then no log message is sent. */
  level?: LogLevel;

  constructor(
    /** The session id (HTTP) or connection name (stdio). */
    readonly id: string,
    /** The runtime session: what the tool cache pins under and the selector's history is kept as. */
    readonly runtime: string,
    private readonly store: ServeStore,
    private readonly ttlMs: number,
  ) {}

  /** Whether a log message at `level` goes to this client. */
  passes(level: LogLevel): boolean {
    return this.level !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.level);
  }

  async setLevel(level: LogLevel): Promise<void> {
    this.level = level;
    await this.save();
  }

  /** Record tools search_tools found; true when the listed set changed. */
  async addFound(ids: string[]): Promise<boolean> {
    const changed = addFound(this.found, ids);
    if (changed) await this.save();
    return changed;
  }

  /** The session is ending: stop its calls in flight (each is answered, with session_closed). */
  close(): void {
    if (this.ended.signal.aborted) return;
    this.ended.abort(
      new ToolboxError('session_closed', 'the MCP session was closed before the call finished', {
        exitCode: ExitCode.cancelled,
        hint: 'Start a new session and call the tool again.',
      }),
    );
  }

  /** The session ended: forget its state here and in the store. */
  async end(): Promise<void> {
    this.close();
    this.found.clear();
    await this.store.delete(`session:${this.id}`);
  }

  private save(): Promise<void> {
    const rec: SessionRecord = { found: [...this.found], ...(this.level ? { level: this.level } : {}) };
    return this.store.set(`session:${this.id}`, rec, this.ttlMs);
  }
}

import type { Project } from '../config.js';
import { listState, readStateText, removeState, statState, writeState } from '../util/state.js';
import { usageError } from '../errors.js';

/** One turn of a session: a query that selected tools, or a tool that was run. */
export interface SessionEvent {
  at: string;
  kind: 'selected' | 'run';
  query?: string;
  tools: string[];
}
export interface Session {
  id: string;
  events: SessionEvent[];
}

const MAX_EVENTS = 50;

/** The session's file, relative to .toolbox/ (read and written through util/state.ts). */
function sessionFile(id: string): string {
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(id) || id.startsWith('.')) {
    throw usageError(
      'invalid_session_id',
      `invalid session id '${id}'`,
      'Use letters, digits, _ . - (at most 128 characters).',
    );
  }
  return `sessions/${id}.json`;
}

/** The session's history (empty when new). */
export function readSession(project: Project, id: string): Session {
  const file = sessionFile(id); // an invalid id is a usage error, not an empty session
  // A planted sessions/ link is refused (state_unsafe), not read.
  const text = readStateText(project.stateDir, file);
  try {
    const s = JSON.parse(text ?? '{}') as Session;
    if (Array.isArray(s.events)) return { id, events: s.events };
  } catch {
    /* new or unreadable: start fresh */
  }
  return { id, events: [] };
}

/** Append one event (keeps the last MAX_EVENTS). Written atomically under .toolbox/sessions/. */
export function recordSessionEvent(project: Project, id: string, event: Omit<SessionEvent, 'at'>): void {
  const s = readSession(project, id);
  s.events.push({ at: new Date().toISOString(), ...event });
  if (s.events.length > MAX_EVENTS) s.events.splice(0, s.events.length - MAX_EVENTS);
  writeState(project.stateDir, sessionFile(id), JSON.stringify(s, null, 1));
  pruneSessions(project);
}

/** Delete a session's file (the session ended). Missing files and invalid ids are ignored. */
export function removeSession(project: Project, id: string): void {
  try {
    removeState(project.stateDir, sessionFile(id));
  } catch {
    /* invalid id: nothing was ever written for it; a refused .toolbox/: nothing of ours there */
  }
}

/** Session files untouched for this long are removed (a CLI session has no end; a killed server's neither). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600_000;
const pruned = new Set<string>();

/**
 * Remove session files not written for SESSION_MAX_AGE_MS; once per state folder per process, so the
 * cost is one directory listing however many sessions are recorded.
 */
export function pruneSessions(project: Project, now = Date.now(), oncePerProcess = true): number {
  if (oncePerProcess && pruned.has(project.stateDir)) return 0;
  pruned.add(project.stateDir);
  let removed = 0;
  let names: string[];
  try {
    // Only a sessions/ folder toolbox owns is pruned: a planted link to another folder is refused.
    names = listState(project.stateDir, 'sessions');
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const st = statState(project.stateDir, `sessions/${name}`);
      if (st && now - st.mtimeMs > SESSION_MAX_AGE_MS) {
        removeState(project.stateDir, `sessions/${name}`);
        removed++;
      }
    } catch {
      /* gone meanwhile, or not ours */
    }
  }
  return removed;
}

import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One line of .toolbox/calls.jsonl. Argument values are never written here (nor their keys):
 * the log may be shared for debugging, and arguments can hold personal data or secrets.
 */
export interface CallRecord {
  ts: string;
  tool: string;
  ok: boolean;
  /** 'ok', or the error code (tool_failed, tool_timeout, invalid_arguments, circuit_open, ...). */
  outcome: string;
  exitCode: number;
  loadMs: number;
  runMs: number;
  durationMs: number;
  cacheHit: boolean;
  /** Sandbox tier the call ran under, when it got that far. */
  sandbox?: string;
  session?: string;
  /** Which entry point made the call (cli, serve, library). */
  via?: string;
}

// Past this size the log is rotated to calls.1.jsonl (one generation kept), so it cannot grow without bound.
const MAX_BYTES = 8 * 1024 * 1024;

export const callLogPath = (stateDir: string) => join(stateDir, 'calls.jsonl');

/**
 * Append one record. One `appendFileSync` of one short line (O_APPEND) keeps lines whole when
 * several processes log at once. Logging never makes a call fail.
 */
export function appendCall(stateDir: string, rec: CallRecord): void {
  const file = callLogPath(stateDir);
  try {
    mkdirSync(stateDir, { recursive: true });
    try {
      if (statSync(file).size > MAX_BYTES) renameSync(file, join(stateDir, 'calls.1.jsonl'));
    } catch {
      /* no log yet */
    }
    appendFileSync(file, JSON.stringify(rec) + '\n');
  } catch {
    // read-only project: no log
  }
}

/** Every record of the log (the rotated generation first); unparsable lines are skipped. */
export function readCalls(stateDir: string): CallRecord[] {
  const out: CallRecord[] = [];
  for (const f of [join(stateDir, 'calls.1.jsonl'), callLogPath(stateDir)]) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as CallRecord;
        if (r && typeof r.tool === 'string') out.push(r);
      } catch {
        /* a torn or foreign line */
      }
    }
  }
  return out;
}

import { join } from 'node:path';
import { appendState, readStateText, renameState, statState } from '../util/state.js';

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
  /** The tool's signature rejected the arguments (a caller error, though the tool's code ran). */
  rejected?: boolean;
}

// Past this size the log is rotated to calls.1.jsonl (one generation kept), so it cannot grow without bound.
const MAX_BYTES = 8 * 1024 * 1024;

const LOG = 'calls.jsonl';
const ROTATED = 'calls.1.jsonl';
/** The state entries the call log uses (the runtime checks them before a call: util/state.ts). */
export const CALL_LOG_FILES = [LOG, ROTATED];
export const callLogPath = (stateDir: string) => join(stateDir, LOG);

/**
 * Append one record. One write of one short line (O_APPEND, never through a link) keeps lines
 * whole when several processes log at once. Logging never makes a call fail.
 */
export function appendCall(stateDir: string, rec: CallRecord): void {
  try {
    if ((statState(stateDir, LOG)?.size ?? 0) > MAX_BYTES) renameState(stateDir, LOG, ROTATED);
    appendState(stateDir, LOG, JSON.stringify(rec) + '\n');
  } catch {
    // read-only project: no log (an unsafe .toolbox/ entry was refused before the call)
  }
}

/** Every record of the log (the rotated generation first); unparsable lines are skipped. */
export function readCalls(stateDir: string): CallRecord[] {
  const out: CallRecord[] = [];
  for (const f of [ROTATED, LOG]) {
    const text = readStateText(stateDir, f);
    if (text === undefined) continue;
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

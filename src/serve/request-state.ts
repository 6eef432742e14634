// The `requestState` of an input-required result: what a 2026-07-28 client echoes back when it retries
// a call with its answers. It goes through the client, so it is signed (HMAC-SHA256 with the store's
// secret: any replica sharing the store can check it) and bound to the call it was minted for (tool,
// arguments, caller), with an expiry. It carries every answer so far, so a retry needs nothing else
// from this process: the call can be run again anywhere with them.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** How long a client may take to answer and retry. */
export const STATE_TTL_MS = 60 * 60_000;

/** What a requestState says (short keys: it travels with every retry). */
export interface StatePayload {
  v: 1;
  /** The suspended call (in the process that minted it), when there is one. */
  c: string;
  /** The round it was minted for: a state from an earlier round cannot drive a later one. */
  r: number;
  /** Tool name as called (search mode: call_tool) and a digest of the arguments. */
  t: string;
  a: string;
  /** Who called (serve's caller), so another caller cannot replay it. */
  p: string;
  /** Answers so far, by question key. */
  n: Record<string, unknown>;
  /** Expiry, ms since the epoch. */
  e: number;
}

/** A requestState that may not drive a call (spent, or answers sent without one): -32602. */
export function spentState(detail: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid or expired requestState: ${detail}`, {
    reason: 'invalid_request_state',
    detail,
  });
}

/** A stable digest of a JSON value (object keys sorted at every level). */
export function digest(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 32);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const sign = (secret: Buffer, body: string) => createHmac('sha256', secret).update(body).digest();

export function mintState(secret: Buffer, payload: Omit<StatePayload, 'v' | 'e'>, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ v: 1, ...payload, e: now + STATE_TTL_MS })).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

/**
 * The payload of a state this server minted for this very call, else a protocol error (-32602,
 * "Invalid or expired requestState"): a tampered, expired or foreign state must not drive a call.
 */
export function verifyState(
  secret: Buffer,
  state: unknown,
  expect: { tool: string; args: string; caller: string },
  now = Date.now(),
): StatePayload {
  const fail = (reason: string): never => {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
      reason: 'invalid_request_state',
      detail: reason,
    });
  };
  if (typeof state !== 'string' || state.length > 4 * 1024 * 1024) return fail('not a string');
  const dot = state.indexOf('.');
  if (dot < 1) return fail('malformed');
  const body = state.slice(0, dot);
  const mac = Buffer.from(state.slice(dot + 1), 'base64url');
  const want = sign(secret, body);
  if (mac.length !== want.length || !timingSafeEqual(mac, want)) return fail('signature does not match');
  let p: StatePayload;
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    return fail('malformed');
  }
  if (p.v !== 1 || typeof p.n !== 'object' || p.n === null) return fail('unknown version');
  if (p.e <= now) return fail('expired');
  if (p.t !== expect.tool || p.a !== expect.args) return fail('minted for another call');
  if (p.p !== expect.caller) return fail('minted for another caller');
  return p;
}

// Records of serve that a client reaches by a random id (a capped result, a task) live in the
// ServeStore, which for a deployment is a Redis that anything able to reach it can read and write.
// So such a record is kept under a digest of its id and sealed (AES-256-GCM) with a key derived from
// the id itself: the id is known only to the client it was given to and to serve, never stored. A
// writer to the store can then delete or garble records (a denial of service), but cannot read one,
// replace one's content, or move one to another id: what it wrote fails to open and is ignored.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { ServeStore } from './store.js';

const IV = 12;
const TAG = 16;

const key = (kind: string, id: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(id, 'utf8'), 'toolbox serve', `sealed ${kind}`, 32));

/** The store key of a record: its kind and a digest of its id (the id itself never reaches the store). */
export function sealedKey(kind: string, id: string): string {
  return `${kind}:${createHash('sha256').update(`toolbox ${kind} ${id}`).digest('base64url')}`;
}

/** `value` as JSON, encrypted and authenticated for (kind, id); the store key is bound in as well. */
export function seal(kind: string, id: string, value: unknown): string {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', key(kind, id), iv);
  c.setAAD(Buffer.from(sealedKey(kind, id)));
  const body = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

/** What seal() made for (kind, id), or undefined for anything else (forged, garbled, another id's). */
export function unseal(kind: string, id: string, sealed: unknown): unknown {
  if (typeof sealed !== 'string') return undefined;
  const b = Buffer.from(sealed, 'base64url');
  if (b.length < IV + TAG) return undefined;
  try {
    const d = createDecipheriv('aes-256-gcm', key(kind, id), b.subarray(0, IV));
    d.setAAD(Buffer.from(sealedKey(kind, id)));
    d.setAuthTag(b.subarray(IV, IV + TAG));
    return JSON.parse(Buffer.concat([d.update(b.subarray(IV + TAG)), d.final()]).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** What reading a sealed record found: nothing, a record that failed its check, or the value. */
export type Opened<T> = { found: false } | { found: true; forged: true } | { found: true; forged: false; value: T };

/** Store `value` sealed for (kind, id) for `ttlMs`. */
export function putSealed(store: ServeStore, kind: string, id: string, value: unknown, ttlMs: number): Promise<void> {
  return store.set(sealedKey(kind, id), { sealed: seal(kind, id, value) }, ttlMs);
}

/**
 * The record of (kind, id), checked: `forged` when something is stored there that serve did not seal
 * for this id, or that fails `valid` (the caller ignores it and says so; it is never served).
 */
export async function getSealed<T>(
  store: ServeStore,
  kind: string,
  id: string,
  valid: (v: unknown) => v is T,
): Promise<Opened<T>> {
  const raw = await store.get<unknown>(sealedKey(kind, id));
  if (raw === undefined || raw === null) return { found: false };
  const v = unseal(kind, id, (raw as { sealed?: unknown }).sealed);
  return v !== undefined && valid(v) ? { found: true, forged: false, value: v } : { found: true, forged: true };
}

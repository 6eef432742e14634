// Which MCP revision a server speaks, remembered as a hint only. A 2026-07-28 server answers
// `server/discover`; a 2025 one is reached with `initialize`. The SDK's 'auto' negotiation probes
// first and falls back, which costs a round trip for every connection to a 2025 server, and, for a
// stdio server that ignores or dies on the unknown probe, a timeout or a restart. So a 2025 verdict
// is kept (in this process, and for a day in the user's cache folder, never in the project) and the
// next connection starts with `initialize`; it is re-verified whenever that fails (the server may
// have moved to 2026-07-28) and after a day. A 2026-07-28 verdict is not kept: the probe that
// finds it is the `server/discover` request such a connection starts with anyway.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs.js';
import { userCacheDir } from '../util/user-dirs.js';

/** How long a 2025 verdict is trusted before the server is probed again. */
export const LEGACY_HINT_MS = 24 * 60 * 60 * 1000;
const STORE = 'mcp-eras.json';
const MAX_ENTRIES = 256;

interface Hint {
  era: 'legacy';
  at: number;
}

const memory = new Map<string, Hint>();
const digest = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 32);

function storeFile(): string | undefined {
  const dir = userCacheDir();
  return dir ? join(dir, STORE) : undefined;
}

function readStore(file: string): Record<string, Hint> {
  try {
    const all = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!all || typeof all !== 'object' || Array.isArray(all)) return {};
    const out: Record<string, Hint> = {};
    for (const [k, v] of Object.entries(all as Record<string, Hint>))
      if (v && v.era === 'legacy' && typeof v.at === 'number') out[k] = { era: 'legacy', at: v.at };
    return out;
  } catch {
    return {};
  }
}

function writeStore(mutate: (all: Record<string, Hint>) => void): void {
  const file = storeFile();
  if (!file) return;
  try {
    const all = readStore(file);
    mutate(all);
    const kept = Object.entries(all)
      .filter(([, h]) => Date.now() - h.at < LEGACY_HINT_MS)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, MAX_ENTRIES);
    writeFileAtomic(file, JSON.stringify(Object.fromEntries(kept)), 0o600);
  } catch {
    /* a hint that cannot be written is only a lost shortcut */
  }
}

/** 'legacy' when this server answered with 2025-11-25 within the last day (a hint: verify it), else undefined. */
export function eraHint(identity: string, now = Date.now()): 'legacy' | undefined {
  const key = digest(identity);
  let h = memory.get(key);
  if (!h) {
    const file = storeFile();
    h = file ? readStore(file)[key] : undefined;
    if (h) memory.set(key, h);
  }
  if (!h || now - h.at >= LEGACY_HINT_MS || h.at > now) return undefined;
  return 'legacy';
}

/** Remember what the server turned out to speak: a 2025 verdict is kept, a 2026-07-28 one clears any hint. */
export function rememberEra(identity: string, era: 'legacy' | 'modern'): void {
  const key = digest(identity);
  if (era === 'modern') {
    memory.delete(key);
    const file = storeFile();
    if (file && readStore(file)[key]) writeStore((all) => delete all[key]);
    return;
  }
  const fresh = memory.get(key);
  if (fresh && Date.now() - fresh.at < LEGACY_HINT_MS / 2) return; // still fresh: no write per connection
  const h: Hint = { era: 'legacy', at: Date.now() };
  memory.set(key, h);
  writeStore((all) => (all[key] = h));
}

/** Drop the hint (the server no longer answers as it did). */
export function forgetEra(identity: string): void {
  const key = digest(identity);
  memory.delete(key);
  writeStore((all) => delete all[key]);
}

/** Forget the in-process hints (tests). */
export function clearEraMemory(): void {
  memory.clear();
}

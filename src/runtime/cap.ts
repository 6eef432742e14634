// Output caps: what one result may put in front of the model, in o200k tokens. Beyond the cap the
// text is cut with a marker naming the file that holds the full result; binary output is never
// shown as text.
import { randomBytes } from 'node:crypto';
import type { Project } from '../config.js';
import type { ToolContract } from '../contract/types.js';
import { writeState } from '../util/state.js';

/** Default cap when neither the contract nor the config sets one. */
export const DEFAULT_RESULT_TOKENS = 20_000;
// Room kept for the marker line itself.
const MARKER_TOKENS = 80;
const CHUNK = 2000; // gpt-tokenizer is quadratic on long unbroken CJK text: encode in chunks

/** Set on a result whose text was cut (or withheld as binary). */
export interface Truncation {
  /** The cap in o200k tokens. */
  cap: number;
  /** Bytes of the full result (UTF-8). */
  bytes: number;
  /** Absolute path of the file under .toolbox/results/ holding the full result. */
  file: string;
  mimeType: string;
  binary: boolean;
}

type Enc = { encode(t: string): number[]; decode(t: number[]): string };
let enc: Enc | undefined;
const encoder = async () => (enc ??= (await import('gpt-tokenizer/encoding/o200k_base')) as unknown as Enc);

/**
 * Text that is not text: NUL or other C0 controls, lone surrogates, or replacement characters
 * from a failed UTF-8 decode (more than a few per thousand characters).
 */
export function looksBinary(text: string): boolean {
  if (text.length === 0) return false;
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) || c === 0xfffd) bad++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const n = sample.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) i++;
      else bad++;
    } else if (c >= 0xdc00 && c <= 0xdfff) bad++;
  }
  return bad > Math.max(2, sample.length * 0.003);
}

/**
 * The longest prefix of `text` within `budget` tokens, or undefined when all of it fits. Counts
 * chunk by chunk and stops at the first chunk that overflows (a 1 GB result costs one chunk more
 * than the cap).
 */
export async function prefixWithin(text: string, budget: number): Promise<string | undefined> {
  if (Buffer.byteLength(text) <= budget) return undefined; // a token is at least one byte
  const e = await encoder();
  let used = 0;
  for (let i = 0; i < text.length; i += CHUNK) {
    // Never split a surrogate pair between chunks.
    let end = Math.min(text.length, i + CHUNK);
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end++;
    const toks = e.encode(text.slice(i, end));
    if (used + toks.length > budget) return text.slice(0, i) + e.decode(toks.slice(0, budget - used));
    used += toks.length;
    i = end - CHUNK;
  }
  return undefined;
}

function saveFull(project: Project, tool: string, data: string, ext: string): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  // Through util/state.ts: a planted `.toolbox/results` link must not receive the tool's text.
  return writeState(project.stateDir, `results/${stamp}-${tool}-${randomBytes(3).toString('hex')}.${ext}`, data);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cap for a tool: its contract's `max_result_tokens`, else `runtime.max_result_tokens`, else 20,000. */
export function resultCap(project: Project, c: ToolContract): number {
  return c.max_result_tokens ?? project.config.runtime?.max_result_tokens ?? DEFAULT_RESULT_TOKENS;
}

/**
 * Apply the cap to a result's model-facing text (and, for an object result, its JSON, which serve
 * also sends). Returns the text to show and, when anything was cut, where the full result is.
 */
export async function capResult(
  project: Project,
  c: ToolContract,
  text: string,
  result: unknown,
): Promise<{ text: string; truncated?: Truncation }> {
  const cap = resultCap(project, c);
  if (looksBinary(text)) {
    const bytes = Buffer.byteLength(text);
    const file = saveFull(project, c.id, text, 'bin');
    return {
      text: `[toolbox: the tool returned binary output (${bytes} bytes); it is not shown as text. Saved to ${file}]`,
      truncated: { cap, bytes, file, mimeType: 'application/octet-stream', binary: true },
    };
  }
  const budget = Math.max(1, cap - MARKER_TOKENS);
  const cut = await prefixWithin(text, budget);
  const json = isPlainObject(result) ? JSON.stringify(result) : undefined;
  const jsonOver = json !== undefined && json !== text && (await prefixWithin(json, budget)) !== undefined;
  if (cut === undefined && !jsonOver) return { text };
  const full = json !== undefined ? JSON.stringify(result, null, 2) : text;
  const isJson = json !== undefined;
  const file = saveFull(project, c.id, full, isJson ? 'json' : 'txt');
  const bytes = Buffer.byteLength(full);
  const marker = `[toolbox: output cut at ${cap} tokens (full result: ${bytes} bytes). The full result is in ${file}]`;
  return {
    text: cut === undefined ? `${text}\n\n${marker}` : `${cut}\n\n${marker}`,
    truncated: { cap, bytes, file, mimeType: isJson ? 'application/json' : 'text/plain', binary: false },
  };
}

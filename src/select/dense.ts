// Optional dense retrieval through an OpenAI-compatible embeddings endpoint (POST {url}/embeddings,
// or the url itself when it already ends in /embeddings). Tool vectors are cached on disk per
// (endpoint, model) and per tool text hash, so only new or edited tools are embedded again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../config.js';
import { ToolboxError, ExitCode } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { cachePath } from '../util/state.js';
import { toolText } from './fields.js';
import type { SelectIndex } from './store.js';
import { nodeCrypto } from '../util/builtins.js';

/** `select.embeddings` in toolbox.config.yaml. */
export interface EmbeddingsConfig {
  url: string;
  model?: string;
  /** Name of the environment variable holding the API key (sent as a Bearer token). */
  api_key_env?: string;
  /** Share of a candidate's score the dense similarity decides (0 to 0.5, default 0.3); see rerank. */
  weight?: number;
}

const BATCH = 64;

function endpoint(url: string): string {
  return /\/embeddings\/?$/.test(url) ? url : url.replace(/\/+$/, '') + '/embeddings';
}

async function embed(
  cfg: EmbeddingsConfig,
  inputs: string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = cfg.api_key_env ? env[cfg.api_key_env] : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(endpoint(cfg.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: cfg.model, input: inputs }),
    signal: signal ?? AbortSignal.timeout(30_000),
  });
  if (!res.ok)
    throw new ToolboxError(
      'embeddings_failed',
      `embeddings endpoint ${endpoint(cfg.url)} answered HTTP ${res.status}`,
      { exitCode: ExitCode.toolFailed },
    );
  const body = (await res.json()) as { data?: { index?: number; embedding?: number[] }[] };
  if (!Array.isArray(body.data) || body.data.length !== inputs.length) {
    throw new ToolboxError(
      'embeddings_failed',
      `embeddings endpoint ${endpoint(cfg.url)} returned ${body.data?.length ?? 'no'} vectors for ${inputs.length} inputs`,
      { exitCode: ExitCode.toolFailed },
    );
  }
  const out: Float32Array[] = new Array(inputs.length);
  body.data.forEach((d, i) => {
    out[d.index ?? i] = normalise(Float32Array.from(d.embedding ?? []));
  });
  return out;
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

type VectorCache = Record<string, string>; // text hash -> base64 of a Float32Array

// The vector cache of each file, read and parsed once per process (the MCP server and `eval`
// rank many queries); decoded vectors are kept beside it.
const vectorFiles = new Map<string, VectorCache>();
const decoded = new Map<string, Float32Array>();

function readVectors(file: string): VectorCache {
  let cache = vectorFiles.get(file);
  if (!cache) {
    try {
      cache = JSON.parse(readFileSync(file, 'utf8')) as VectorCache;
    } catch {
      cache = {};
    }
    vectorFiles.set(file, cache);
  }
  return cache;
}

function vector(file: string, cache: VectorCache, hash: string): Float32Array {
  const key = `${file}\n${hash}`;
  let v = decoded.get(key);
  if (!v) decoded.set(key, (v = decode(cache[hash]!)));
  return v;
}

/** The vector cache's path, and whether it may be read and written (util/state.ts checked it). */
function cacheFile(project: Project, cfg: EmbeddingsConfig): { file: string; usable: boolean } {
  const key = nodeCrypto()
    .createHash('sha1')
    .update(`${endpoint(cfg.url)}\n${cfg.model ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const rel = `cache/embeddings-${key}.json`;
  const checked = cachePath(project.stateDir, rel, true);
  return { file: checked ?? join(project.stateDir, rel), usable: checked !== undefined };
}

const decode = (b64: string) => {
  const b = Buffer.from(b64, 'base64');
  return new Float32Array(b.buffer, b.byteOffset, b.length / 4);
};
const encode = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');

/**
 * Cosine similarity of the query to every tool (tools are embedded once and cached).
 * Throws embeddings_failed when the endpoint is unreachable or answers badly.
 */
export async function denseScores(
  project: Project,
  index: SelectIndex,
  query: string,
  cfg: EmbeddingsConfig,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<Float64Array> {
  const { file, usable } = cacheFile(project, cfg);
  const cache = usable ? readVectors(file) : {};
  const missing = index.tools.map((_, i) => (cache[index.hash(i)] ? -1 : i)).filter((i) => i >= 0);
  try {
    for (let s = 0; s < missing.length; s += BATCH) {
      const batch = missing.slice(s, s + BATCH);
      const vecs = await embed(
        cfg,
        batch.map((i) => toolText(index.contract(i))),
        env,
        signal,
      );
      batch.forEach((i, j) => {
        cache[index.hash(i)] = encode(vecs[j]!);
      });
    }
  } catch (e) {
    if (e instanceof ToolboxError) throw e;
    throw new ToolboxError(
      'embeddings_failed',
      `embeddings endpoint ${endpoint(cfg.url)} failed: ${(e as Error).message}`,
      { exitCode: ExitCode.toolFailed, cause: e },
    );
  } finally {
    if (missing.length && usable) {
      try {
        writeFileAtomic(file, JSON.stringify(cache));
      } catch {
        /* read-only: re-embed next time */
      }
    }
  }
  const [q] = await embed(cfg, [query], env, signal);
  const scores = new Float64Array(index.tools.length);
  index.tools.forEach((_, i) => {
    const v = vector(file, cache, index.hash(i));
    let dot = 0;
    for (let k = 0; k < Math.min(v.length, q!.length); k++) dot += v[k]! * q![k]!;
    scores[i] = dot;
  });
  return scores;
}

/** Largest share of a candidate's score the dense similarity may decide (config weights are clamped to it). */
export const MAX_DENSE_WEIGHT = 0.5;
/** Default dense weight: it can swap near-ties of the lexical ranking, not overturn a clear winner. */
export const DENSE_WEIGHT = 0.3;

/**
 * Rerank the lexical candidates `order` (best first, already cut off) with the dense similarity:
 * score = (1 − w)·lexical/lexical_top + w·(cosine scaled to 0..1 over the candidates). Only the
 * candidates are touched (a tool the words did not match is never added), and with w ≤ 0.5 a
 * weak embedding can only reorder tools whose lexical scores are close.
 */
export function rerank(
  order: number[],
  lexical: ArrayLike<number>,
  dense: ArrayLike<number>,
  weight = DENSE_WEIGHT,
): { order: number[]; scores: Float64Array } {
  const w = Math.min(MAX_DENSE_WEIGHT, Math.max(0, weight));
  const scores = new Float64Array(lexical.length);
  const top = lexical[order[0]!]! || 1;
  let lo = Infinity;
  let hi = -Infinity;
  for (const d of order) {
    lo = Math.min(lo, dense[d]!);
    hi = Math.max(hi, dense[d]!);
  }
  const span = hi - lo || 1;
  for (const d of order) scores[d] = (1 - w) * (lexical[d]! / top) + w * ((dense[d]! - lo) / span);
  return { order: [...order].sort((a, b) => scores[b]! - scores[a]! || a - b), scores };
}

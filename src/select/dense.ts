// Optional dense retrieval through an OpenAI-compatible embeddings endpoint (POST {url}/embeddings,
// or the url itself when it already ends in /embeddings). Tool vectors are cached on disk per
// (endpoint, model) and per tool text hash, so only new or edited tools are embedded again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../config.js';
import { ToolboxError, ExitCode } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { toolText } from './fields.js';
import type { SelectIndex } from './store.js';

/** `select.embeddings` in toolbox.config.yaml. */
export interface EmbeddingsConfig {
  url: string;
  model?: string;
  /** Name of the environment variable holding the API key (sent as a Bearer token). */
  api_key_env?: string;
  /** Weight of the dense ranking in the fusion (lexical has 1). Default 1. */
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

function cacheFile(project: Project, cfg: EmbeddingsConfig): string {
  const key = createHash('sha1')
    .update(`${endpoint(cfg.url)}\n${cfg.model ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return join(project.stateDir, 'cache', `embeddings-${key}.json`);
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
  const file = cacheFile(project, cfg);
  let cache: VectorCache = {};
  try {
    cache = JSON.parse(readFileSync(file, 'utf8')) as VectorCache;
  } catch {
    /* none yet */
  }
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
    if (missing.length) {
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
    const v = decode(cache[index.hash(i)]!);
    let dot = 0;
    for (let k = 0; k < Math.min(v.length, q!.length); k++) dot += v[k]! * q![k]!;
    scores[i] = dot;
  });
  return scores;
}

/** Reciprocal rank fusion (Cormack et al. 2009): Σ weight / (60 + rank) over the rankings a tool is in. */
export function fuse(rankings: { order: number[]; weight: number }[], n: number): Float64Array {
  const out = new Float64Array(n);
  for (const { order, weight } of rankings)
    order.forEach((doc, r) => {
      out[doc] += weight / (60 + r + 1);
    });
  return out;
}

#!/usr/bin/env node
// Converts each /work/shared/bench/<set>/tools.jsonl into a registry of contract files (one YAML
// per tool, a harmless `command` loader, category -> tags) under bench/.data/<set>/tool_registry,
// and queries.jsonl into eval cases (bench/.data/<set>/cases.jsonl). Also builds the synthetic
// registries of 100 / 1,000 / 10,000 tools used by the latency bench (bench/.data/size-<n>/).
// Usage: node bench/convert-sets.mjs [--shared DIR] [--force]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { REPO } from './lib.mjs';

export const SHARED = process.env.TOOLBOX_BENCH_SHARED ?? join(REPO, '..', 'shared', 'bench');
export const DATA = join(REPO, 'bench', '.data');
const STAMP = 'converted-v2';

/** The records of a JSON-lines file. */
export const jl = (p) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** Contract ids must match ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$: map the few source ids that do not. */
export function contractId(id) {
  let out = String(id).replace(/[^A-Za-z0-9_.-]/g, '_');
  if (!/^[A-Za-z_]/.test(out)) out = `t_${out}`;
  if (out.length > 64) out = `${out.slice(0, 55)}_${createHash('sha1').update(String(id)).digest('hex').slice(0, 8)}`;
  return out;
}

/** A benchmark tool as a toolbox contract (a no-op command: only selection reads it). */
export function contract(t, id) {
  const p =
    t.parameters && typeof t.parameters === 'object' && Object.keys(t.parameters).length
      ? t.parameters
      : { type: 'object', properties: {} };
  return {
    id,
    name: t.name || id,
    description: t.description ?? '',
    schema: p,
    loader: 'command',
    loader_config: { argv: ['true'] },
    ...(t.category ? { tags: [t.category] } : {}),
  };
}

/** Write one registry: files numbered so that discovery order = source order (the baseline's tie order). */
function writeRegistry(dir, tools) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'tool_registry'), { recursive: true });
  const width = String(tools.length).length;
  tools.forEach(({ t, id }, i) => {
    writeFileSync(
      join(dir, 'tool_registry', `${String(i).padStart(width, '0')}_${id}.yaml`),
      stringify(contract(t, id), { lineWidth: 0 }),
    );
  });
}

export function sets() {
  return readdirSync(SHARED)
    .filter((d) => existsSync(join(SHARED, d, 'tools.jsonl')) && existsSync(join(SHARED, d, 'queries.jsonl')))
    .sort();
}

export function convert({ force = false } = {}) {
  const all = [];
  for (const set of sets()) {
    const dir = join(DATA, set);
    const src = join(SHARED, set, 'tools.jsonl');
    const tools = jl(src).map((t) => ({ t, id: contractId(t.id) }));
    all.push(...tools);
    const stamp = join(dir, STAMP);
    const srcTime = Math.max(statSync(src).mtimeMs, statSync(join(SHARED, set, 'queries.jsonl')).mtimeMs);
    if (!force && existsSync(stamp) && statSync(stamp).mtimeMs >= srcTime) continue;
    writeRegistry(dir, tools);
    const map = new Map(tools.map(({ t, id }) => [t.id, id]));
    const cases = jl(join(SHARED, set, 'queries.jsonl')).map((q) =>
      JSON.stringify({ query: q.query, relevant: q.relevant.map((r) => map.get(r) ?? contractId(r)), lang: q.lang }),
    );
    writeFileSync(join(dir, 'cases.jsonl'), cases.join('\n') + '\n');
    writeFileSync(stamp, new Date().toISOString());
    process.stderr.write(`converted ${set}: ${tools.length} tools, ${cases.length} cases -> ${dir}\n`);
  }
  // Synthetic registries for the latency bench: the pooled tools of every set, repeated with a
  // suffix when more are needed than exist.
  // A fixed shuffle (seeded LCG) so that every size mixes all sets.
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  for (const n of [100, 1000, 10000]) {
    const dir = join(DATA, `size-${n}`);
    if (!force && existsSync(join(dir, STAMP))) continue;
    const picked = [];
    const seen = new Set();
    for (let i = 0; picked.length < n && all.length; i++) {
      const { t, id } = all[i % all.length];
      const copy = Math.floor(i / all.length);
      const cid = copy ? contractId(`${id.slice(0, 56)}_copy${copy}`) : id;
      if (seen.has(cid)) continue;
      seen.add(cid);
      picked.push({ t: copy ? { ...t, name: `${t.name} ${copy}` } : t, id: cid });
    }
    writeRegistry(dir, picked);
    writeFileSync(join(dir, STAMP), new Date().toISOString());
    process.stderr.write(`built size-${n}: ${picked.length} tools\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) convert({ force: process.argv.includes('--force') });

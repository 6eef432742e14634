// A strict reader of Prometheus's text exposition format (0.0.4), for tests that scrape /metrics:
// every line must be a comment (# HELP / # TYPE) or a sample `name{label="value",…} number`, label
// values escaped as the format says; anything else throws, naming the line.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  help: Map<string, string>;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+-?\\d+)?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"\s*(,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function number(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const n = Number(text);
  if (!Number.isFinite(n) || !/^[-+]?[0-9.eE+-]+$/.test(text)) throw new Error(`not a number in: ${line}`);
  return n;
}

function labels(text: string | undefined, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const at = LABEL.lastIndex;
    const m = LABEL.exec(text);
    if (!m || m.index !== at) throw new Error(`bad labels in: ${line}`);
    out[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    if (m[3] === '') break;
  }
  return out;
}

export function parseExposition(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('exposition text must end with a newline');
  const e: Exposition = { samples: [], types: new Map(), help: new Map() };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`).exec(line);
      if (!m) continue; // a plain comment
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3]!)) throw new Error(`unknown type in: ${line}`);
        if (e.types.has(m[2]!)) throw new Error(`second TYPE for ${m[2]}`);
        e.types.set(m[2]!, m[3]!);
      } else e.help.set(m[2]!, m[3]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    e.samples.push({ name: m[1]!, labels: labels(m[2], line), value: number(m[3]!, line) });
  }
  return e;
}

/** The value of the one sample of `name` with exactly these labels (undefined when there is none). */
export function sample(e: Exposition, name: string, want: Record<string, string>): number | undefined {
  const hit = e.samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === Object.keys(want).length &&
      Object.entries(want).every(([k, v]) => s.labels[k] === v),
  );
  if (hit.length > 1) throw new Error(`${hit.length} samples of ${name} ${JSON.stringify(want)}`);
  return hit[0]?.value;
}

// The tool-poisoning corpus (test/fixtures/poison/): each case as a small contract in a registry
// that the real `validate` reads, and the scoring of what validate reported. Shared by
// `npm run bench -- poison` and test/lint/poison-corpus.test.ts, so both count the same way.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const CORPUS = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'test', 'fixtures', 'poison');
export const PARTS = ['dev', 'held-out'];
export const CLASSES = ['override', 'concealment', 'secret-env', 'secret-file', 'exfiltration', 'tool-steering'];
export const POISON_RULES = CLASSES.map((c) => `poison-${c}`);

/** The cases of one part: a list of { id, class, lang, style, obfuscation, where, param?, text }. */
export function loadPart(part) {
  const cases = parse(readFileSync(join(CORPUS, `${part}.yaml`), 'utf8'));
  for (const c of cases) {
    if (c.class !== 'clean' && !CLASSES.includes(c.class))
      throw new Error(`${part}.yaml ${c.id}: unknown class ${c.class}`);
    if (!['en', 'zh'].includes(c.lang)) throw new Error(`${part}.yaml ${c.id}: lang must be en or zh`);
  }
  return cases.map((c) => ({ ...c, part }));
}

/** A harmless tool with the case's text where the case says (the description, a parameter, a value…). */
export function contractFor(c) {
  const name = c.param ?? 'note';
  const prop = { type: 'string', description: c.lang === 'zh' ? '附加说明。' : 'An optional note.' };
  const contract = {
    id: c.id.replace(/[^A-Za-z0-9_.-]/g, '_'),
    name: c.lang === 'zh' ? '示例工具' : 'Example tool',
    description:
      c.lang === 'zh'
        ? '查询指定城市的天气。当用户询问天气时使用。'
        : 'Looks up the weather for a city. Use when the user asks about the weather.',
    schema: { type: 'object', properties: { city: { type: 'string', description: 'City name.' }, [name]: prop } },
    loader: 'command',
    loader_config: { argv: ['true'] },
  };
  switch (c.where) {
    case 'description':
      contract.description = c.text;
      break;
    case 'name':
      contract.name = c.text;
      break;
    case 'title':
      contract.title = c.text;
      break;
    case 'param':
      prop.description = c.text;
      break;
    case 'enum':
      prop.enum = ['a', 'b', c.text];
      break;
    case 'default':
      prop.default = c.text;
      break;
    case 'example':
      prop.examples = [c.text];
      break;
    case 'key':
      delete contract.schema.properties[name];
      contract.schema.properties[c.text] = prop;
      break;
    case 'output':
      contract.output_schema = { type: 'object', properties: { answer: { type: 'string', description: c.text } } };
      break;
    default:
      throw new Error(`case ${c.id}: unknown where '${c.where}'`);
  }
  return contract;
}

/** Write the cases as a project (tool_registry/<id>.yaml each) under `dir`; returns file name -> case. */
export function writeProject(dir, cases) {
  mkdirSync(join(dir, 'tool_registry'), { recursive: true });
  const byFile = new Map();
  for (const c of cases) {
    const file = `${c.id}.yaml`;
    writeFileSync(join(dir, 'tool_registry', file), stringify(contractFor(c), { lineWidth: 0 }));
    byFile.set(file, c);
  }
  return byFile;
}

/**
 * Score validate's diagnostics against the labels. A poisoned case is caught when its class's rule
 * reports an error on it ("detected" when any poisoning rule does: what validate's exit status sees);
 * a clean case is a false positive when any poisoning rule reports an error on it. Precision of a
 * class counts only clean cases as false positives: a poisoned case flagged with a second class as
 * well (a secret read and hidden from the user) is not a false alarm.
 */
export function score(byFile, diagnostics) {
  const flagged = new Map(); // file -> Set of classes with an error
  for (const d of diagnostics) {
    if (d.severity !== 'error' || !POISON_RULES.includes(d.rule)) continue;
    const file = d.file.split('/').pop();
    if (!flagged.has(file)) flagged.set(file, new Set());
    flagged.get(file).add(d.rule.replace(/^poison-/, ''));
  }
  const rows = [];
  for (const [file, c] of byFile) {
    const got = flagged.get(file) ?? new Set();
    rows.push({ ...c, got: [...got], caught: c.class !== 'clean' && got.has(c.class), detected: got.size > 0 });
  }
  return rows;
}

/** Recall, precision and counts for a group of scored rows (one class, or all poisoned). */
export function measure(rows, cls) {
  const pos = rows.filter((r) => (cls ? r.class === cls : r.class !== 'clean'));
  const clean = rows.filter((r) => r.class === 'clean');
  const tp = pos.filter((r) => (cls ? r.caught : r.detected)).length;
  const fp = clean.filter((r) => (cls ? r.got.includes(cls) : r.detected)).length;
  return {
    n: pos.length,
    tp,
    recall: pos.length ? tp / pos.length : NaN,
    precision: tp + fp ? tp / (tp + fp) : NaN,
    detected: pos.filter((r) => r.detected).length,
    clean: clean.length,
    fp,
  };
}

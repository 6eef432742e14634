// Generated registries for the scale benches: N contracts with a varied vocabulary (pseudo-words
// built from syllables plus a pool of real domain words), spread over folders of 500 files, with a
// seeded generator so that every run measures the same registry.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DOMAIN = (
  'weather currency invoice calendar translation stock flight recipe package ticket email ' +
  'payment hotel train route map image video audio document spreadsheet database user account ' +
  'order shipment product review rating news article search book movie music playlist contact ' +
  'meeting reminder task project budget expense tax salary loan mortgage insurance policy claim ' +
  'patient appointment prescription vaccine symptom diet workout sleep step heart temperature'
).split(' ');
const VERBS = (
  'look up,convert,summarise,create,cancel,list,validate,estimate,compare,translate,schedule,' +
  'track,fetch,update,delete,rank,filter,export,import,analyse,predict,monitor,notify,archive'
).split(',');
const SYL = 'ka lo mi ne ru ta vi so pe da zu fo li ga ber quin tor mas pel vex dra nor sil '.trim().split(' ');

/** A seeded generator (mulberry32): every run measures the same data. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A registry of `n` generated contracts in `<dir>/tool_registry/gNN/`. Returns the registry folder. */
export function generateRegistry(dir, n, { seed = 42 } = {}) {
  const rand = rng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const word = () => Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(SYL)).join('');
  // A vocabulary that grows with the registry, as real ones do (product and provider names).
  const vocab = Array.from({ length: Math.max(200, n / 2) }, word);
  const reg = join(dir, 'tool_registry');
  for (let i = 0; i < n; i++) {
    const group = join(reg, `g${String(Math.floor(i / 500)).padStart(3, '0')}`);
    if (i % 500 === 0) mkdirSync(group, { recursive: true });
    const topic = pick(DOMAIN);
    const verb = pick(VERBS);
    const brand = pick(vocab);
    const extra = Array.from({ length: 4 }, () => pick(vocab)).join(' ');
    let other = pick(DOMAIN);
    if (other === topic) other = DOMAIN[(DOMAIN.indexOf(topic) + 1) % DOMAIN.length];
    const desc =
      `${verb[0].toUpperCase()}${verb.slice(1)} the ${topic} records of ${brand} by ${other} and ${extra}. ` +
      `Use when the user asks to ${verb} a ${topic} from ${brand}.`;
    writeFileSync(
      join(group, `t${i}.yaml`),
      [
        `id: tool_${i}`,
        `name: ${verb} ${topic} ${brand}`,
        `description: "${desc}"`,
        'schema:',
        '  type: object',
        '  properties:',
        '    key:',
        '      type: string',
        `      description: The ${topic} key in ${brand}, e.g. K-${i}.`,
        '    limit:',
        '      type: integer',
        '      minimum: 1',
        `      description: At most this many ${other} rows.`,
        '  required: [key]',
        '  additionalProperties: false',
        'loader: command',
        'loader_config:',
        '  argv: ["echo", "{{key}}"]',
        `tags: [${topic}, ${other}]`,
        '',
      ].join('\n'),
    );
  }
  return reg;
}

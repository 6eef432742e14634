// `toolbox validate` on generated registries of growing size: total time and time per tool,
// side by side with the smallest registry (the lint's pairwise similarity check must not go quadratic).
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, table, timeCommand } from './lib.mjs';

const TOPICS = [
  'weather',
  'currency',
  'invoice',
  'calendar',
  'translation',
  'stock',
  'flight',
  'recipe',
  'package',
  'ticket',
];
const VERBS = ['Look up', 'Convert', 'Summarise', 'Create', 'Cancel', 'List', 'Validate', 'Estimate'];

function makeRegistry(n) {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-validate-'));
  mkdirSync(join(dir, 'tool_registry'));
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const verb = VERBS[Math.floor(i / TOPICS.length) % VERBS.length];
    writeFileSync(
      join(dir, 'tool_registry', `t${i}.yaml`),
      [
        `id: tool_${i}`,
        `name: ${verb} ${topic} ${i}`,
        `description: "${verb} the ${topic} record number ${i} (variant ${(i * 7919) % 10007}). Use when the user asks about ${topic} item ${i}."`,
        'schema:',
        '  type: object',
        '  properties:',
        '    key:',
        '      type: string',
        `      description: The ${topic} key, e.g. K-${i}.`,
        '  required: [key]',
        'loader: command',
        'loader_config:',
        '  argv: ["echo", "{{key}}"]',
        '',
      ].join('\n'),
    );
  }
  return dir;
}

export default async function () {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const rows = [];
  let base;
  for (const n of [100, 1000, 3000]) {
    const dir = makeRegistry(n);
    try {
      const ms = timeCommand(process.execPath, [BIN, 'validate', '--no-routing', '--json'], {
        cwd: dir,
        env,
        n: 3,
        warmup: 1,
      });
      base ??= ms / n;
      rows.push([n, ms.toFixed(0), (ms / n).toFixed(2), (ms / n / base).toFixed(2)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  table(['tools', 'validate median ms', 'ms per tool', 'per-tool ratio to 100 tools'], rows);
}

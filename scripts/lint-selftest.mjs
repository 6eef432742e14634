// Proves the lint gate can fail, so that a config change cannot silently drop a check. Run by `npm run lint`.
// 1. ESLint: a floating promise, a misused promise, a use of Node's internal bindings, every way of reaching
//    node:child_process outside src/util/host-process.ts, and a direct read of a project path (a contract)
//    outside src/util/project-file.ts, planted in a temporary src/ file, must be reported.
// 2. The import graph (scripts/import-graph.mjs): a circle (through a type-only and a lazy import), an upward
//    import, an import between peers, a folder on no floor and an import of a missing file, planted in memory
//    beside the real src/, must each be reported, and nothing else.
import { rmSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { checkGraph, readTree } from './import-graph.mjs';

const code = `import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
export async function save(): Promise<void> {}
export function main(): void {
  save();
  [1].forEach(async () => save());
}
export const pipe = process.binding('pipe_wrap');
export const a = spawn;
export const b = () => import('child_process');
export const c = () => createRequire(import.meta.url)('node:child_process');
export const d = () => import('execa');
`;
// A project file read directly, four ways: a named import, a namespace import, node:fs/promises, import().
const readCode = `import { readFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { readFile } from 'node:fs/promises';
export const contract = () => readFileSync('tool_registry/diag.yaml', 'utf8');
export const size = () => fs.statSync('tool_registry/diag.yaml').size;
export const later = () => readFile('tool_registry/diag.yaml');
export const lazy = () => import('node:fs').then((m) => m.readFileSync('requirements.txt'));
`;
const PROJECT_READ_HITS = 4;
// The four child-process spellings above.
const HOST_PROCESS_HITS = 4;
// Type-aware rules need the file inside the TypeScript project, so it is written for the run and removed after.
const file = 'src/commands/__lint_selftest__.ts';
const readFile = 'src/registry/__lint_selftest_read__.ts';
writeFileSync(file, code);
writeFileSync(readFile, readCode);
let result;
let readResult;
try {
  [result, readResult] = await new ESLint().lintFiles([file, readFile]);
} finally {
  rmSync(file, { force: true });
  rmSync(readFile, { force: true });
}
const found = new Set((result?.messages ?? []).map((m) => m.ruleId));
const expected = [
  '@typescript-eslint/no-floating-promises',
  '@typescript-eslint/no-misused-promises',
  'no-restricted-properties',
];
const missing = expected.filter((id) => !found.has(id));
const hostHits = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').length;
if (hostHits !== HOST_PROCESS_HITS)
  missing.push(`no-restricted-syntax (${hostHits} of ${HOST_PROCESS_HITS} child_process imports)`);
const readHits = (readResult?.messages ?? []).filter((m) => /src\/util\/project-file\.ts/.test(m.message ?? '')).length;
if (readHits !== PROJECT_READ_HITS)
  missing.push(`no-restricted-imports/syntax (${readHits} of ${PROJECT_READ_HITS} direct reads of a project file)`);
if (missing.length) {
  process.stderr.write(
    `lint self-test: planted bugs not reported by ${missing.join(', ')}; got ${[...found].join(', ') || 'nothing'}\n`,
  );
  process.exit(1);
}

const planted = [
  ['util/__selftest_a.ts', "import type { B } from './__selftest_b.js';\nexport type A = B;\n"],
  ['util/__selftest_b.ts', "export type B = 1;\nexport const load = () => import('./__selftest_a.js');\n"],
  ['util/__selftest_up.ts', "export { runCommand } from '../commands/run.js';\n"],
  ['sandbox/__selftest_peer.ts', "import { loadRegistry } from '../registry/registry.js';\nexport { loadRegistry };\n"],
  ['attic/__selftest.ts', 'export const x = 1;\n'],
  ['util/__selftest_missing.ts', "export * from './__selftest_nowhere.js';\n"],
];
const tree = readTree('src');
const clean = checkGraph(tree);
const problems = checkGraph(new Map([...tree, ...planted]));
const wanted = [
  /^import circle: src\/util\/__selftest_[ab]\.ts → src\/util\/__selftest_[ab]\.ts → /,
  /^src\/util\/__selftest_up\.ts:1: util \(floor \d+\) imports commands \(floor \d+\) upward/,
  /^src\/sandbox\/__selftest_peer\.ts:1: sandbox imports its peer registry/,
  /^src\/attic\/__selftest\.ts: room 'attic' is on no floor/,
  /^src\/util\/__selftest_missing\.ts:1: imports \.\/__selftest_nowhere\.js, which is not in src\//,
];
const unmatched = wanted.filter((re) => !problems.some((p) => re.test(p)));
const extra = problems.filter((p) => !wanted.some((re) => re.test(p)) && !clean.includes(p));
if (unmatched.length || extra.length || problems.length !== clean.length + wanted.length) {
  process.stderr.write(
    `lint self-test: the import graph check missed ${unmatched.map(String).join(', ') || 'nothing'}; ` +
      `reported ${problems.length - clean.length} planted problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  'lint self-test: a planted floating promise, misused promise, process.binding, 4 child_process imports and 4 ' +
    'direct reads of a project file, and an ' +
    'import circle (through a type-only and a lazy import), an upward import, a peer import, a folder on no floor and ' +
    'a missing import were reported\n',
);

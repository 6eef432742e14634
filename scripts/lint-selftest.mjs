// Proves the lint gate can fail: a floating promise, a misused promise, a use of Node's internal bindings and
// every way of reaching node:child_process outside src/util/host-process.ts, planted in a temporary src/ file, must
// be reported. Run by `npm run lint`, so a config change that silently drops the type-aware rules fails CI.
import { rmSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';

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
// The four child-process spellings above.
const HOST_PROCESS_HITS = 4;
// Type-aware rules need the file inside the TypeScript project, so it is written for the run and removed after.
const file = 'src/commands/__lint_selftest__.ts';
writeFileSync(file, code);
let result;
try {
  [result] = await new ESLint().lintFiles([file]);
} finally {
  rmSync(file, { force: true });
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
if (missing.length) {
  process.stderr.write(
    `lint self-test: planted bugs not reported by ${missing.join(', ')}; got ${[...found].join(', ') || 'nothing'}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `lint self-test: a planted floating promise, misused promise, process.binding and 4 child_process imports were reported\n`,
);

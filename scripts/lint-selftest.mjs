// Proves the lint gate can fail: a floating promise, a misused promise and a use of Node's internal bindings
// planted in a temporary src/ file must be reported. Run by `npm run lint`, so a config change that silently drops the type-aware rules fails CI.
import { rmSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';

const code = `export async function save(): Promise<void> {}
export function main(): void {
  save();
  [1].forEach(async () => save());
}
export const pipe = process.binding('pipe_wrap');
`;
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
if (missing.length) {
  process.stderr.write(
    `lint self-test: planted bugs not reported by ${missing.join(', ')}; got ${[...found].join(', ') || 'nothing'}\n`,
  );
  process.exit(1);
}
process.stdout.write(`lint self-test: a planted floating promise, misused promise and process.binding were reported\n`);

#!/usr/bin/env node
// `npm run goldens`: (re)write the golden files of test/e2e/validate-golden.test.ts from the current
// binary, then show what changed with `git diff`. Refused under CI: a CI run must compare, never write.
import { spawnSync } from 'node:child_process';

if (process.env.CI && process.env.CI !== 'false') {
  process.stderr.write('error: refusing to write goldens under CI (CI is set); run `npm run goldens` locally\n');
  process.exit(2);
}
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const r = spawnSync('npx', ['vitest', 'run', 'test/e2e/validate-golden.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, TOOLBOX_GOLDENS: 'write' },
});
if (r.status === 0) spawnSync('git', ['status', '--short', 'test/fixtures/validate'], { stdio: 'inherit' });
process.exit(r.status ?? 1);

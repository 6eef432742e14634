// vitest globalSetup: fails the run when tests wrote into the repository (they must work on temp
// copies). Compares the untracked and ignored entries of `git status` and the newest mtime under
// each, before and after the run (tracked files are left out: a developer may edit them during a
// run). Not a git checkout: nothing to compare.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
// Written by the build or by tools around the tests, never by a test.
// Named without the trailing slash git adds to folders: a symlinked node_modules is listed without one.
const OWN = new Set(['node_modules', 'dist', 'reports', '.stryker-tmp', 'coverage']);

function newest(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(path)) max = Math.max(max, newest(join(path, e)));
  return max;
}

function snapshot(): Map<string, number> | undefined {
  let out: string;
  try {
    out = execFileSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=normal'], {
      cwd: REPO,
      encoding: 'utf8',
    });
  } catch {
    return undefined;
  }
  const m = new Map<string, number>();
  for (const line of out.split('\n').filter(Boolean)) {
    const path = line.slice(3);
    if (OWN.has(path.replace(/\/$/, '')) || !(line.startsWith('??') || line.startsWith('!!'))) continue;
    m.set(line, newest(join(REPO, path)));
  }
  return m;
}

export default function setup(): () => void {
  const before = snapshot();
  return () => {
    if (!before) return;
    const after = snapshot()!;
    const changed = [...after].filter(([k, t]) => before.get(k) !== t).map(([k]) => k);
    if (!changed.length) return;
    process.exitCode = 1;
    throw new Error(`tests wrote into the repository (use a temp copy):\n${changed.map((c) => `  ${c}`).join('\n')}`);
  };
}

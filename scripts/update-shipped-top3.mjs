#!/usr/bin/env node
// Rewrite test/fixtures/select/shipped-top3.json: the top 3 (at most) that `toolbox select` gives
// for each case of shipped-cases.jsonl, as --role assistant, on a temp copy of the shipped registry.
// Run after a deliberate change of the ranking model, then review the diff. Refused under CI.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

if (process.env.CI && process.env.CI !== 'false') {
  process.stderr.write('error: refusing to rewrite expected rankings under CI\n');
  process.exit(2);
}
const repo = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'toolbox-top3-'));
try {
  cpSync(join(repo, 'tool_registry'), join(dir, 'tool_registry'), { recursive: true });
  const cases = readFileSync(join(repo, 'test/fixtures/select/shipped-cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const out = {};
  for (const c of cases) {
    const argv = [join(repo, 'bin/toolbox.js'), 'select', c.query, '--json', '--role', 'assistant', '-k', '3'];
    out[c.query] = JSON.parse(execFileSync(process.execPath, argv, { cwd: dir, encoding: 'utf8' })).results.map(
      (r) => r.id,
    );
  }
  writeFileSync(join(repo, 'test/fixtures/select/shipped-top3.json'), JSON.stringify(out, null, 2) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

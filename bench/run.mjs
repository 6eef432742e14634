#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in turn (or those named on the command line:
// `npm run bench -- select run`). Each prints its own side-by-side table to stdout.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort()
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)));
for (const f of files) {
  const started = Date.now();
  process.stdout.write(`\n## ${f.replace('.bench.mjs', '')}\n\n`);
  try {
    const mod = await import(join(here, f));
    await mod.default();
  } catch (e) {
    // One broken bench must not hide the others' figures; the exit code still says it failed.
    process.exitCode = 1;
    process.stdout.write(`(failed: ${e instanceof Error ? e.message : String(e)})\n`);
  }
  process.stderr.write(`(${f}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

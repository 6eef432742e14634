// Copies the non-TypeScript files that live in src/ (runner programs, JSON data) into dist/,
// keeping their relative paths, so compiled code can find them beside itself. src/report/app/ is the
// report pages' browser code and stylesheet, inlined into each HTML report: copied whole.
import { cpSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { join, dirname, extname } from 'node:path';

const EXTS = new Set(['.py', '.mjs', '.cjs', '.json', '.txt']);
function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (EXTS.has(extname(name)) || p.startsWith(join('src', 'report', 'app'))) out.push(p);
  }
  return out;
}
for (const file of walk('src')) {
  const dest = join('dist', file.slice('src/'.length));
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(file, dest);
}

// `npm pack`/`npm publish` ship dist/ prebuilt, so the published package.json must not carry the
// `prepare` script: npm 11 warns about (and may block) install scripts of every dependency that
// has one, although a registry or tarball install would have nothing to build. The same pattern
// as pinst: `prepack` strips it (keeping the exact original text beside it), `postpack` puts the
// original back. `prepare` stays in the repository for clones (`npm ci`) and git installs.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const BACKUP = '.package.json.prepack';

if (process.argv[2] === 'strip') {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST); // an interrupted pack: start from the original
  const text = readFileSync(MANIFEST, 'utf8');
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(BACKUP, text);
  writeFileSync(MANIFEST, JSON.stringify(pkg, null, 2) + '\n');
} else if (process.argv[2] === 'restore') {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}

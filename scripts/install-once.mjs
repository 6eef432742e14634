// npm packages the tests need but toolbox does not depend on (the conformance suite, agent SDKs, a Node 22
// binary): installed once into a folder of the OS temp folder, outside the project, and reused by later
// runs. The install happens beside that folder and is renamed into place with a `.complete` marker, so a
// concurrent or interrupted run never sees half a tree.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';

const run = promisify(execFile);

/**
 * `npm install <specs>` into `dir` unless a complete install is there already. `engineStrict` is npm's
 * --engine-strict (false for packages that need a newer Node than the one running npm); `pkg` is
 * merged into the folder's package.json. Returns `dir`.
 */
export async function installOnce(dir, specs, { engineStrict = true, pkg = {} } = {}) {
  if (existsSync(join(dir, '.complete'))) return dir;
  const work = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(
      join(work, 'package.json'),
      JSON.stringify({ name: 'toolbox-test-tools', private: true, ...pkg }) + '\n',
    );
    await run('npm', ['install', '--no-audit', '--no-fund', `--engine-strict=${engineStrict}`, ...specs], {
      cwd: work,
      timeout: 600_000,
      maxBuffer: 16 << 20,
    });
    writeFileSync(join(work, '.complete'), new Date().toISOString() + '\n');
    // A folder left by an interrupted install has no marker: replace it.
    if (existsSync(dir) && !existsSync(join(dir, '.complete'))) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      if (!existsSync(join(dir, '.complete'))) throw e; // someone else finished first: use theirs
      rmSync(work, { recursive: true, force: true });
    }
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

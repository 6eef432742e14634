import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '__pycache__', '.git', '.toolbox', '.venv', 'venv']);

/**
 * Contract files (*.yaml, *.yml) under `dir`, recursively, sorted, as paths relative to `dir` with '/'.
 * With `dirs`, the folders walked ('' for `dir` itself) are added to it: a change journal that one
 * stat per folder checks (a folder's mtime changes when a file in it is added, removed or renamed).
 */
export function discoverContractFiles(dir: string, dirs?: string[]): string[] {
  const out: string[] = [];
  discoverUnder(dir, '', out, dirs);
  return out.sort();
}

/**
 * The contract files of the registry folder `rel` (relative to `dir`, '' for `dir` itself), appended
 * to `out` unsorted; subfolders are walked too unless `skip(relSubfolder)` says they are known.
 */
export function discoverUnder(
  dir: string,
  rel: string,
  out: string[],
  dirs?: string[],
  skip?: (rel: string) => boolean,
): void {
  // Relative paths are built by concatenation: path.relative per file is slow on 10,000 files.
  const walk = (d: string, rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    dirs?.push(rel);
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      // Symlinked folders are not followed (no loops); symlinked files are read as files.
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !skip?.(r)) walk(join(d, e.name), r);
      } else if (
        (e.isFile() || e.isSymbolicLink()) &&
        /\.ya?ml$/i.test(e.name) &&
        !/^toolbox\.config\.ya?ml$/i.test(e.name)
      ) {
        out.push(r);
      }
    }
  };
  walk(rel ? join(dir, rel) : dir, rel);
}

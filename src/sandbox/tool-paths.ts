// What of the project a tool's code may see: only its own package or module folder, never the
// project root (which holds .env, .git, .toolbox/ and every other tool). See docs/sandbox.md.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const inside = (root: string, p: string) => {
  const r = relative(root, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/**
 * For a Python module `a.b.c`: the top-level package folder `<root>/a`, or the single module file
 * `<root>/a.py` (or an extension module `a.*.so` is not supported: bind it with sandbox.paths).
 * A folder without `__init__.py` is a namespace package, which holds nothing of its own: the path
 * goes on down to the first regular package or module file (`my_tools/word_count.py` of the
 * namespace `my_tools`, as `toolbox new` lays tools out), so a tool sees, and the lock pins, only
 * its own module, and editing one tool leaves the others' pins alone.
 */
export function pythonModulePaths(root: string, module: string): string[] {
  const parts = module.split('.');
  if (!parts[0] || parts.some((p) => !p || p.includes('/') || p.includes(sep))) return [];
  let dir = root;
  for (let i = 0; i < parts.length; i++) {
    const here = join(dir, parts[i]!);
    if (isDir(here)) {
      // A regular package (or the module itself, a namespace folder): shown whole.
      if (existsSync(join(here, '__init__.py')) || i === parts.length - 1) return [here];
      dir = here;
      continue;
    }
    const file = `${here}.py`;
    return existsSync(file) ? [file] : [];
  }
  return [];
}

/**
 * For a Node module path: the folder holding the module (the file alone when it sits at the project
 * root), plus what Node's resolution reads between that folder and the root: each package.json
 * (for "type": "module") and each node_modules folder.
 */
export function nodeModulePaths(root: string, module: string): string[] {
  const file = isAbsolute(module) ? module : resolve(root, module);
  const dir = dirname(file);
  const out: string[] = [dir === root ? file : dir];
  if (!inside(root, dir)) return out;
  for (let d = dir; ; d = dirname(d)) {
    for (const f of ['package.json', 'node_modules']) if (existsSync(join(d, f))) out.push(join(d, f));
    if (d === root || dirname(d) === d) break;
  }
  return out;
}

/** For a command program given by path: its folder, or the file alone when it sits at the project root. */
export function programPaths(root: string, program: string): string[] {
  return [dirname(program) === root ? program : dirname(program)];
}

/** Top-level Python modules at the project root (packages and .py files), for "did you mean". */
export function topLevelPythonModules(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => (d.isDirectory() && existsSync(join(root, d.name, '__init__.py'))) || /\.py$/.test(d.name))
      .map((d) => d.name.replace(/\.py$/, ''))
      .filter((n) => /^[A-Za-z_]\w*$/.test(n))
      .sort();
  } catch {
    return [];
  }
}

/** Python modules directly in a package folder (`x.py` files and folders), for "did you mean". */
export function pythonModulesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || /\.py$/.test(d.name))
      .map((d) => d.name.replace(/\.py$/, ''))
      .filter((n) => /^[A-Za-z_]\w*$/.test(n) && n !== '__pycache__')
      .sort();
  } catch {
    return [];
  }
}

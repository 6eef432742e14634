// Small real fixtures for dependency tests: contracts, installed-looking Python distributions
// (a *.dist-info folder in a venv's site-packages is what importlib.metadata reads), node_modules packages,
// and a hand-made wheel (a zip with the package, METADATA, WHEEL and RECORD).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject, type Project } from '../../src/config.js';
import type { ToolEntry } from '../../src/contract/types.js';
import { loadRegistry } from '../../src/registry/registry.js';

/** A contract in YAML; `extra` is appended verbatim (requires:, loader_config: …). */
export function contract(id: string, loaderYaml: string, extra = ''): string {
  return `id: ${id}
name: ${id}
description: A test tool used to check declared runtime dependencies of tools.
schema: { type: object, properties: {} }
${loaderYaml}
${extra}`;
}

export const PY_LOADER = 'loader: python_function\nloader_config: { module: pkg.mod, function: run }';

/** A folder that looks like an installed distribution `name==version` to importlib.metadata. */
export function fakeDist(siteDir: string, name: string, version: string): void {
  const d = join(siteDir, `${name.replace(/-/g, '_')}-${version}.dist-info`);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`);
}

/** A venv without pip at `dir` (made by python3 on PATH); returns its site-packages folder. */
export function makeVenv(dir: string, flags: string[] = []): string {
  execFileSync('python3', ['-m', 'venv', '--without-pip', ...flags, dir]);
  const lib = join(dir, 'lib');
  return join(
    lib,
    readdirSync(lib).find((d) => d.startsWith('python'))!,
    'site-packages',
  );
}

/** node_modules/<name>/package.json under `dir`. */
export function fakeNodePackage(dir: string, name: string, version: string): void {
  const d = join(dir, 'node_modules', name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'package.json'), JSON.stringify({ name, version }));
}

/** Build `<name>-<version>-py3-none-any.whl` in `outDir` with python's zipfile; returns its path. */
export function makeWheel(outDir: string, name: string, version: string): string {
  const file = join(outDir, `${name}-${version}-py3-none-any.whl`);
  const script = `
import zipfile, sys, hashlib, base64
name, version, path = sys.argv[1], sys.argv[2], sys.argv[3]
di = f"{name}-{version}.dist-info"
files = {
  f"{name}/__init__.py": f"VERSION = {version!r}\\n",
  f"{di}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
  f"{di}/WHEEL": "Wheel-Version: 1.0\\nGenerator: toolbox-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
def h(data):
  return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data.encode()).digest()).rstrip(b"=").decode()
record = "".join(f"{p},{h(c)},{len(c.encode())}\\n" for p, c in files.items()) + f"{di}/RECORD,,\\n"
with zipfile.ZipFile(path, "w") as z:
  for p, c in files.items(): z.writestr(p, c)
  z.writestr(f"{di}/RECORD", record)
`;
  mkdirSync(outDir, { recursive: true });
  execFileSync('python3', ['-c', script, name, version, file]);
  return file;
}

/** Project + registry entries of a temp project folder. */
export function projectAt(dir: string): { project: Project; entry(id: string): ToolEntry; entries: ToolEntry[] } {
  const project = resolveProject({ cwd: dir });
  const reg = loadRegistry(project, { cache: false });
  if (reg.broken.length) throw new Error(`broken fixture: ${JSON.stringify(reg.broken[0]!.diagnostics[0])}`);
  return { project, entries: reg.entries, entry: (id) => reg.byId.get(id)! };
}

/** The environment tests run checks with: PATH and HOME only, plus `extra`. */
export const baseEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...extra,
});

// Real packages for the install tests of issue 23 (items 3 and 4): a Python sdist whose build backend
// marks the host when pip starts it, a tiny npm registry on loopback serving real tarballs, and a
// plain file server. Nothing here is a mock of pip or npm: they fetch, verify and unpack these.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `<name>-<version>.tar.gz` in `outDir`: an sdist with an in-tree build backend (no download needed)
 * that appends to `mark` as soon as pip imports it, i.e. the moment pip decides to build.
 */
export function makeEvilSdist(outDir: string, name: string, version: string, mark: string): string {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}-${version}.tar.gz`);
  const backend = `open(${JSON.stringify(mark)}, "a").write("build backend of ${name} ran\\n")
def get_requires_for_build_wheel(config_settings=None):
    return []
def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    raise RuntimeError("no wheel here")
`;
  const script = `
import io, sys, tarfile
name, version, path = sys.argv[1], sys.argv[2], sys.argv[3]
root = f"{name}-{version}"
files = {
  "pyproject.toml": '[build-system]\\nrequires = []\\nbuild-backend = "backend"\\nbackend-path = ["."]\\n',
  "backend.py": sys.argv[4],
  "PKG-INFO": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
}
with tarfile.open(path, "w:gz") as t:
  for p, c in files.items():
    data = c.encode()
    info = tarfile.TarInfo(f"{root}/{p}")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
`;
  execFileSync('python3', ['-c', script, name, version, file, backend]);
  return file;
}

/** A loopback HTTP server answering `files[path]` (or 404), and the paths it was asked for. */
export async function fileServer(
  files: Record<string, Buffer>,
): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const body = files[(req.url ?? '').split('?')[0]!];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((r) => server.close(() => r())) };
}

/** An npm package to serve: package.json fields and its files (relative to the package root). */
export interface NpmPackage {
  json: Record<string, unknown> & { name: string; version: string };
  files: Record<string, string>;
}

/** A tarball of `pkg` as npm publishes it (everything under package/). */
function tarball(pkg: NpmPackage): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-npmpkg-'));
  try {
    mkdirSync(join(dir, 'package'));
    writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(pkg.json, null, 2));
    for (const [p, c] of Object.entries(pkg.files)) {
      mkdirSync(join(dir, 'package', p, '..'), { recursive: true });
      writeFileSync(join(dir, 'package', p), c, { mode: p.endsWith('.mjs') ? 0o755 : 0o644 });
    }
    execFileSync('tar', ['czf', join(dir, 'pkg.tgz'), '-C', dir, 'package']);
    return readFileSync(join(dir, 'pkg.tgz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A minimal npm registry on loopback (packuments and tarballs) serving `packages`. */
export async function npmRegistry(packages: NpmPackage[]) {
  const files: Record<string, Buffer> = {};
  const byName = new Map<string, NpmPackage[]>();
  for (const p of packages) byName.set(p.json.name, [...(byName.get(p.json.name) ?? []), p]);
  const srv = await fileServer(files);
  for (const [name, versions] of byName) {
    const doc = {
      name,
      'dist-tags': { latest: versions[versions.length - 1]!.json.version },
      versions: {} as Record<string, unknown>,
    };
    for (const p of versions) {
      const tgz = tarball(p);
      const path = `/${name}/-/${name}-${p.json.version}.tgz`;
      files[path] = tgz;
      doc.versions[p.json.version] = {
        ...p.json,
        dist: {
          tarball: `${srv.url}${path}`,
          integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
          shasum: createHash('sha1').update(tgz).digest('hex'),
        },
      };
    }
    files[`/${name}`] = Buffer.from(JSON.stringify(doc));
  }
  return srv;
}

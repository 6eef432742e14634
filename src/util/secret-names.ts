// The names of a project that hold credentials, at any depth: the one list that the host-side reader
// (util/project-file.ts) never reads, the sandbox masks inside every folder it shows a tool
// (sandbox/mask.ts), binds.ts refuses to bind and the lock never hashes. A name counts wherever it
// appears in a path (`apps/web/.env.local`, `vendor/lib/.git/config`), not only at the project root.
import { sep } from 'node:path';

/** Folders whose whole content is credentials or repository internals (`.git/config` holds remote URLs with tokens). */
export const SECRET_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.aws',
  '.docker',
  '.kube',
  '.ssh',
  '.gnupg',
  '.azure',
]);

/** Single files that hold credentials (package registries, netrc, cloud CLIs, databases). */
export const SECRET_FILES: ReadonlySet<string> = new Set([
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.dockercfg',
  '.vault-token',
  '.boto',
  '.s3cfg',
]);

/** Whether one path component is a credential name (`.env*` in any case, or one of the lists above). */
export function isSecretName(name: string): boolean {
  return SECRET_DIRS.has(name) || SECRET_FILES.has(name) || /^\.env/i.test(name);
}

/** The first component of a relative path that is a credential name (what the path is or lies in), else undefined. */
export function secretIn(rel: string): string | undefined {
  // Cheap first test: every secret name starts with '.' or '_' (a path without either has none).
  if (!rel.includes('.') && !rel.includes('_')) return undefined;
  for (const part of rel.split(sep === '/' ? '/' : /[\\/]/)) if (isSecretName(part)) return part;
  return undefined;
}

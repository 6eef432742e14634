// Reading a folder of a project's git history (`eval --compare REF`) without letting the repository
// run anything. A repository's own config (.git/config, an embedded bare repository, includeIf'd
// files) can name programs git starts: filter drivers (`git archive` runs a `filter.<x>.process`
// that .gitattributes selects), core.fsmonitor, pagers, textconv, hooks, transports for a lazy
// fetch. So git runs with fixed options that switch those off, without the system and global
// config, and only plumbing that converts nothing: ls-tree and cat-file --batch (raw blobs, no
// filters). Files are written by toolbox itself, regular files only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runHost, type HostResult } from './host-process.js';

/** Options that keep git from starting programs a repository's config names, whatever that config says. */
export const GIT_SAFE_ARGS = [
  '--no-pager',
  '--no-replace-objects',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'core.sshCommand=false',
  '-c',
  'core.gitProxy=false',
  '-c',
  'core.askPass=false',
  '-c',
  'credential.helper=',
  '-c',
  'diff.external=',
  '-c',
  'protocol.allow=never',
  '-c',
  'safe.bareRepository=explicit',
  '-c',
  'uploadpack.packObjectsHook=',
];

/** The environment git runs with: no system or global config, no prompts, no lazy fetches. */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const k of ['HOME', 'LANG', 'LC_ALL', 'TZ']) if (env[k] !== undefined) out[k] = env[k];
  return {
    ...out,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
  };
}

/** Run git (from a trusted system folder) with the safe options. */
export function git(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; binary?: boolean }) {
  return runHost('git', [...GIT_SAFE_ARGS, ...args], {
    cwd: opts.cwd,
    env: gitEnv(opts.env ?? process.env),
    input: opts.input,
    binary: opts.binary,
    timeoutMs: 120_000,
  });
}

const why = (r: HostResult) => (r.error ?? r.stderr.trim().split('\n').pop()) || `exit ${r.code}`;

/** A path component git may hold but toolbox will not write. */
const badPart = (p: string) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git';

/**
 * Write the regular files under `rel` (a folder of the repository at `top`, '.' for all) at
 * `commit` into `dir`, keeping their paths. Symlinks and submodules are skipped. Returns how many
 * files were written; throws an Error saying why git failed.
 */
export async function exportTree(top: string, commit: string, rel: string, dir: string): Promise<number> {
  const ls = await git(['ls-tree', '-r', '-z', '--full-tree', commit, '--', rel], { cwd: top, binary: true });
  if (ls.code !== 0) throw new Error(`git ls-tree: ${why(ls)}`);
  const files: { mode: string; oid: string; path: string }[] = [];
  for (const rec of ls.stdout.split('\0')) {
    const m = /^(\d{6}) blob ([0-9a-f]{40,64})\t(.+)$/s.exec(rec);
    if (!m || (m[1] !== '100644' && m[1] !== '100755')) continue;
    if (m[3]!.split('/').some(badPart)) continue;
    files.push({ mode: m[1], oid: m[2]!, path: m[3]! });
  }
  if (files.length === 0) return 0;
  const cat = await git(['cat-file', '--batch'], {
    cwd: top,
    input: files.map((f) => f.oid).join('\n') + '\n',
    binary: true,
  });
  if (cat.code !== 0 || !cat.stdoutBytes) throw new Error(`git cat-file: ${why(cat)}`);
  const buf = cat.stdoutBytes;
  let at = 0;
  for (const f of files) {
    const nl = buf.indexOf(0x0a, at);
    const head = buf.subarray(at, nl).toString('latin1').split(' ');
    if (nl < 0 || head[0] !== f.oid || head[1] !== 'blob')
      throw new Error(`git cat-file: unexpected answer for ${f.path}`);
    const size = Number(head[2]);
    const out = join(dir, f.path);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, buf.subarray(nl + 1, nl + 1 + size), { mode: f.mode === '100755' ? 0o755 : 0o644 });
    at = nl + 1 + size + 1;
  }
  return files.length;
}

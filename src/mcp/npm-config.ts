/**
 * npm's configuration for a managed server install. npm reads a project's `.npmrc` (its `git=`,
 * `script-shell=`, `node-options=`… name programs it runs, even with --ignore-scripts), the user's
 * `~/.npmrc` and a global one. For an install toolbox makes: the project config cannot be reached
 * (the prefix is a fresh folder with none), the user config is a copy of only the user's registry,
 * authentication, proxy and certificate settings (so private registries keep working; nothing that
 * names a program), and the global config is used only when root owns it (else an empty file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { rootOwnedChain } from '../util/host-process.js';

const SAFE_KEY =
  /^(registry|@[^:\s=]+:registry|\/\/[^\s=]+:(_authToken|_auth|username|_password|always-auth|certfile|keyfile|email)|always-auth|https?-proxy|proxy|no-?proxy|cafile|ca(\[\])?|cert|key|strict-ssl|maxsockets|fetch-retries|fetch-retry-[a-z]+|fetch-timeout|cache|prefer-offline|offline)$/;

/** The lines of an .npmrc whose key is a registry, auth, proxy or certificate setting. */
export function safeNpmrcLines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => {
    const m = /^\s*([^=;#\s][^=]*?)\s*=/.exec(l);
    return m ? SAFE_KEY.test(m[1]!) : false;
  });
}

/** Command-line options that pin npm's config files (see the file comment), and a cleanup. */
export function npmConfigArgs(env: NodeJS.ProcessEnv): { args: string[]; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-npm-'));
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const userFile = [env.npm_config_userconfig, env.NPM_CONFIG_USERCONFIG].find((v) => v && isAbsolute(v));
  let user = '';
  try {
    user = readFileSync(userFile ?? join(home, '.npmrc'), 'utf8');
  } catch {
    /* none */
  }
  const userconfig = join(dir, 'npmrc');
  writeFileSync(userconfig, safeNpmrcLines(user).join('\n') + '\n', { mode: 0o600 });
  const empty = join(dir, 'empty');
  writeFileSync(empty, '', { mode: 0o600 });
  // npm's default global config: <prefix>/etc/npmrc, the prefix being the folder above node's bin/.
  const global = join(dirname(dirname(process.execPath)), 'etc', 'npmrc');
  return {
    args: [`--userconfig=${userconfig}`, `--globalconfig=${rootOwnedChain(global) ? global : empty}`],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// Whom the daemon serves: not callers whose PATH or PYENV_* read the same as its own, but callers for
// whom a call would be decided the same way. What decides a call that toolbox takes from its own
// process rather than from the request: the user's folders (config with grants.yaml, cache, state),
// the temp folder, the forced sandbox tier and toolbox's other settings (TOOLBOX_*, OTEL_*). Those
// must match, or the caller is turned away (its command runs directly). Program lookup (python3 on
// PATH, a pyenv/asdf shim's version) follows the request's environment inside the daemon
// (resolveInterpreter takes it), so a caller whose python3 is another program is still served, with
// its own interpreter, in a pool (Runtime and warm workers) of its own. Reasons name variables and
// programs, never values: a variable may hold a secret.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { describeProgram, resolvedNames } from '../sandbox/interpreter.js';
import type { Env } from '../util/env.js';

/** How the daemon may serve one caller. */
export type Verdict =
  /** Every program resolves as for the daemon itself: the daemon's own interpreters, tier and folders. */
  | { serve: 'same' }
  /** Served with the caller's own program lookup (named in `why`), in a pool of its own. */
  | { serve: 'own'; why: string }
  /** Turned away (the command runs directly): `code` groups the reasons in `daemon status`. */
  | { serve: 'away'; code: string; why: string };

// Programs always compared (besides those the daemon has resolved so far): the default interpreter.
const ALWAYS = ['python3'];

const abs = (v: string | undefined): string | undefined => (v && isAbsolute(v) ? v : undefined);
/** `p` with links resolved as far as it exists (a user folder not made yet still compares by its parent). */
const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    const up = dirname(p);
    return up === p ? p : join(realOr(up), basename(p));
  }
};
const homeOf = (env: Env) => abs(env.HOME) ?? homedir();

// The user's folders as util/user-dirs.ts finds them (there from process.env; here from any env).
const FOLDERS: { code: string; name: string; vars: string; of: (env: Env) => string }[] = [
  { code: 'home', name: 'home folder', vars: 'HOME', of: (env) => homeOf(env) },
  ...(
    [
      ['config_dir', 'config folder (config.yaml, grants.yaml)', 'XDG_CONFIG_HOME', '.config'],
      ['cache_dir', 'cache folder', 'XDG_CACHE_HOME', '.cache'],
      ['state_dir', 'state folder', 'XDG_STATE_HOME', '.local/state'],
    ] as const
  ).map(([code, name, v, fallback]) => ({
    code,
    name: `user ${name}`,
    vars: `${v}/HOME`,
    of: (env: Env) => join(abs(env[v]) ?? join(homeOf(env), fallback), 'toolbox'),
  })),
  // os.tmpdir(): where sandboxes get their work folders.
  { code: 'tmpdir', name: 'temp folder', vars: 'TMPDIR', of: (env) => (env.TMPDIR || '/tmp').replace(/(.)\/+$/, '$1') },
];

/** toolbox's own settings read from its process environment (TOOLBOX_DAEMON* only picks the daemon). */
const setting = (k: string) => (k.startsWith('TOOLBOX_') && !k.startsWith('TOOLBOX_DAEMON')) || k.startsWith('OTEL_');
const settingCode = (k: string) =>
  k === 'TOOLBOX_SANDBOX' ? 'sandbox_tier' : k.startsWith('OTEL_') ? 'telemetry' : 'toolbox_setting';

// Variables a verdict depends on besides TOOLBOX_*/OTEL_*: its cache key.
const DECIDING = [
  'PATH',
  'PYENV_VERSION',
  'ASDF_PYTHON_VERSION',
  'HOME',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
];
// Judging costs about 0.3-1 ms (a PATH walk, realpaths and a read of the ELF header per program): an
// agent's loop of calls with one environment is judged once per TTL. Installing another python3 on the
// caller's PATH is seen after at most this long (what the daemon runs is cached per process anyway).
const VERDICT_TTL_MS = 2000;
const MAX_VERDICTS = 64;

/** The daemon's side of the comparison: its own environment, and what it resolves, computed once. */
export class Whom {
  private readonly folders: string[];
  private readonly programs = new Map<string, string>();
  private readonly verdicts = new Map<string, { at: number; v: Verdict }>();

  constructor(private readonly own: Env) {
    this.folders = FOLDERS.map((f) => realOr(f.of(own)));
  }

  private ownProgram(name: string): string {
    let d = this.programs.get(name);
    if (d === undefined) this.programs.set(name, (d = describeProgram(name, this.own)));
    return d;
  }

  /** Whom the daemon serves, in words (for `daemon start` and `daemon status`). */
  describe(): { python3: string; tier: string; configDir: string; settings: string[] } {
    const py = this.ownProgram('python3');
    let python3 = 'none on PATH';
    try {
      python3 = (JSON.parse(py) as [string])[0];
    } catch {
      /* an error code: none */
    }
    return {
      python3,
      tier: this.own.TOOLBOX_SANDBOX ? `forced ${this.own.TOOLBOX_SANDBOX} (TOOLBOX_SANDBOX)` : 'probed',
      configDir: this.folders[FOLDERS.findIndex((f) => f.code === 'config_dir')]!,
      settings: Object.keys(this.own).filter(setting).sort(),
    };
  }

  /** How a caller with environment `env` may be served (cached briefly per deciding values). */
  judge(env: Env, now = Date.now()): Verdict {
    const names = [...new Set([...ALWAYS, ...resolvedNames()])];
    const key = JSON.stringify([
      names,
      DECIDING.map((k) => env[k]),
      Object.entries(env)
        .filter(([k]) => setting(k))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ]);
    const hit = this.verdicts.get(key);
    if (hit && now - hit.at < VERDICT_TTL_MS) return hit.v;
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    const v = this.decide(env, names);
    this.verdicts.set(key, { at: now, v });
    return v;
  }

  private decide(env: Env, names: string[]): Verdict {
    for (const [i, f] of FOLDERS.entries())
      if (realOr(f.of(env)) !== this.folders[i])
        return { serve: 'away', code: f.code, why: `the ${f.name} differs from the daemon's (${f.vars})` };
    for (const k of new Set([...Object.keys(env), ...Object.keys(this.own)]))
      if (setting(k) && env[k] !== this.own[k])
        return { serve: 'away', code: settingCode(k), why: `${k} differs from the daemon's` };
    const differ = names.filter((n) => describeProgram(n, env) !== this.ownProgram(n));
    if (differ.length)
      return {
        serve: 'own',
        // Names come from contracts (project files): shown only when they are plain words.
        why: `${differ.map((n) => (/^[\w.+-]{1,64}$/.test(n) ? n : 'a program')).join(', ')} ${differ.length > 1 ? 'resolve' : 'resolves'} to another program on this caller's PATH/PYENV_*/ASDF_*`,
      };
    return { serve: 'same' };
  }
}

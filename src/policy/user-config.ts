// The user's own toolbox settings, outside any project: `$XDG_CONFIG_HOME/toolbox/config.yaml`
// (else `~/.config/toolbox/config.yaml`). What only the user may decide lives here, never in a
// project's toolbox.config.yaml (a cloned repository ships that one): for now the limits of what a
// tool may relay through `serve` (the `serve:` section). Like grants.yaml, the file counts only
// when it is the user's (owned by them or root, not writable by others) and outside the project.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { parseYamlSource, type PathSeg } from '../contract/yaml-source.js';
import { ExitCode, ToolboxError, type Location } from '../errors.js';
import { ownedBySelf, userConfigDir } from '../util/user-dirs.js';

/** The user's settings file, parsed (empty when there is none, or when it does not count). */
export interface UserConfig {
  file?: string;
  data: Record<string, unknown>;
  /** Where a key path sits in the file (for messages). */
  locate(path: readonly PathSeg[]): Location | undefined;
  /** Why an existing file was not read (someone else's, writable by others, inside the project). */
  ignored?: string;
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** Read the user's config.yaml (outside `projectRoot`, when given). Throws user_config_invalid on bad YAML. */
export function loadUserConfig(projectRoot?: string): UserConfig {
  const dir = userConfigDir();
  const file = dir ? join(dir, 'config.yaml') : undefined;
  const none: UserConfig = { data: {}, locate: () => undefined };
  if (!file || !existsSync(file)) return none;
  if (!ownedBySelf(file) || !ownedBySelf(dir!))
    return { ...none, ignored: `${file} is not yours alone (another owner, or writable by others)` };
  if (projectRoot) {
    const r = relative(real(projectRoot), real(file));
    if (r === '' || (!r.startsWith('..') && !isAbsolute(r)))
      return { ...none, ignored: `${file} lies inside the project` };
  }
  const src = parseYamlSource(readFileSync(file, 'utf8'));
  const first = src.errors[0];
  if (first)
    throw new ToolboxError('user_config_invalid', `${file}:${first.pos.line}:${first.pos.column}: ${first.message}`, {
      exitCode: ExitCode.registry,
      location: { file, line: first.pos.line, column: first.pos.column },
      hint: 'Fix the YAML of your own toolbox settings (see docs/mcp.md, "Limits of what a tool may relay").',
    });
  const data = src.value && typeof src.value === 'object' && !Array.isArray(src.value) ? src.value : {};
  return {
    file,
    data: data as Record<string, unknown>,
    locate: (path) => ({ file, ...src.locate(path) }),
  };
}

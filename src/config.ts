import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ExitCode, ToolboxError } from './errors.js';
import { parseYamlSource } from './contract/yaml-source.js';
import type { Severity } from './contract/diagnostic.js';
import { checkConfig, dropEmptySections, pathString } from './config-schema.js';
import { cachedConfig } from './config-cache.js';
import { readProjectText } from './util/project-file.js';

export const CONFIG_NAMES = ['toolbox.config.yaml', 'toolbox.config.yml'];

/** At most this many problems are listed in one config_invalid error. */
const MAX_PROBLEMS = 10;

/** toolbox.config.yaml, as written. Every section is optional. */
export interface ToolboxConfig {
  /** Registry folder, relative to the config file. Default: tool_registry. */
  registry?: string;
  lint?: {
    /** Per-rule severity override, or 'off'. */
    rules?: Record<string, Severity | 'off'>;
    /** Per-rule options, e.g. { 'description-length': { min: 20, max: 1024 } }. */
    options?: Record<string, Record<string, unknown>>;
    /** Contract files validate skips: globs relative to the registry folder ("drafts/**"). */
    ignore?: string[];
    /** Rule severities for some files only: `[{ files: ["imported/**"], rules: { description-vague: off } }]`. */
    overrides?: { files: string[]; rules: Record<string, Severity | 'off'> }[];
  };
  runtime?: {
    /** Loaded-tool LRU size in long-running processes. */
    cache_size?: number;
    /** Warm workers per tool, and calls of one tool running at once in serve (default 4). */
    pool_size?: number;
    /** Default wall-clock timeout (seconds or '30s'). */
    timeout?: number | string;
    breaker?: { failures?: number; window?: number; cooldown?: number };
    /** Default cap, in o200k tokens, on what one result puts in front of the model (20,000). */
    max_result_tokens?: number;
  };
  select?: {
    top?: number;
    /** Tool ids offered with every selection (after the ranked ones). */
    always?: string[];
    embeddings?: { url: string; model?: string; api_key_env?: string; weight?: number };
  };
  permissions?: {
    /** user -> roles */
    users?: Record<string, string[]>;
    /** Policy: tool id or glob -> roles allowed (added to each contract's own `permissions`). */
    tools?: Record<string, string[]>;
    /** Role used when neither --user nor --role is given. */
    default_role?: string;
  };
  /** Default user/role for this project (overridden by --user / --role). */
  user?: string;
  role?: string;
  /** OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME override it). */
  telemetry?: { endpoint?: string; capture_content?: boolean; service_name?: string };
  /** Check toolbox.lock before every call of `run` and `serve` (as with --locked). */
  locked?: boolean;
}

/** Where things are for one invocation: the registry, the project root and the state folder. */
export interface Project {
  /** The folder that holds the registry folder (put on sys.path for python tools). */
  root: string;
  registryDir: string;
  /** `<root>/.toolbox`: caches, call log, breaker state, sessions. */
  stateDir: string;
  config: ToolboxConfig;
  configFile?: string;
}

export interface ProjectOptions {
  cwd: string;
  registry?: string;
  config?: string;
}

/**
 * The nearest project marker walking up from `cwd`: a config file, or (without one) a
 * `tool_registry/` folder. The nearest wins, so a registry folder inside another project is not
 * silently replaced by the outer project's config.
 */
function findProject(cwd: string): { config?: string; registryDir?: string } {
  let dir = resolve(cwd);
  for (;;) {
    for (const n of CONFIG_NAMES) {
      const p = join(dir, n);
      if (existsSync(p)) return { config: p };
    }
    const reg = join(dir, 'tool_registry');
    try {
      if (statSync(reg).isDirectory()) return { registryDir: reg };
    } catch {
      /* keep looking */
    }
    const up = dirname(dir);
    if (up === dir) return {};
    dir = up;
  }
}

export function loadConfig(file: string): ToolboxConfig {
  let text: string;
  try {
    // The project's file (a link out of its folder, a FIFO or a device is refused unread).
    text = readProjectText(dirname(file), file);
  } catch (e) {
    throw new ToolboxError('config_unreadable', `cannot read config: ${(e as Error).message}`, {
      exitCode: ExitCode.registry,
    });
  }
  const cache = cachedConfig<ToolboxConfig>(file, text);
  if (cache.config) return cache.config;
  const src = parseYamlSource(text);
  const first = src.errors[0];
  if (first) {
    throw new ToolboxError('config_invalid', `${file}:${first.pos.line}:${first.pos.column}: ${first.message}`, {
      exitCode: ExitCode.registry,
      location: { file, ...first.pos },
      hint: 'Fix the YAML syntax of the config file.',
    });
  }
  const v = src.value ?? {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new ToolboxError('config_invalid', `${file}:1:1: the config must be a YAML mapping`, {
      exitCode: ExitCode.registry,
      location: { file, line: 1, column: 1 },
    });
  }
  const problems = checkConfig(v as Record<string, unknown>);
  if (problems.length) {
    const shown = problems.slice(0, MAX_PROBLEMS).map((p) => ({ ...p, pos: src.locate(p.path) }));
    const lines = shown.map((p) => `${file}:${p.pos.line}:${p.pos.column}: ${p.message}`);
    if (problems.length > shown.length) lines.push(`… and ${problems.length - shown.length} more`);
    const head = shown[0]!;
    throw new ToolboxError('config_invalid', lines.join('\n'), {
      exitCode: ExitCode.registry,
      location: { file, ...head.pos },
      hint: head.hint ?? 'See "Configuration" in the README for the shape of toolbox.config.yaml.',
      details: {
        problems: shown.map((p) => ({
          path: pathString(p.path),
          line: p.pos.line,
          column: p.pos.column,
          message: p.message,
        })),
      },
    });
  }
  dropEmptySections(v as Record<string, unknown>);
  cache.store(v as ToolboxConfig);
  return v as ToolboxConfig;
}

/**
 * The registry folder a config names. It must lie inside the config's own folder: the project root
 * is the folder above the registry, and toolbox writes `.toolbox/` there, so a cloned project's
 * `registry: ../..` or `/etc/x` would make it write (and read grants) elsewhere. `--registry` is
 * how the user points at a registry anywhere.
 */
function configRegistry(configFile: string, registry: string): string {
  const base = dirname(configFile);
  const dir = isAbsolute(registry) ? resolve(registry) : resolve(base, registry);
  const r = relative(base, dir);
  if (r !== '' && !r.startsWith('..') && !isAbsolute(r)) return dir;
  const pos = parseYamlSource(readProjectText(dirname(configFile), configFile)).locate(['registry']);
  throw new ToolboxError(
    'config_invalid',
    `${configFile}:${pos.line}:${pos.column}: registry '${registry}' is ${r === '' ? 'the config folder itself' : `outside the config's folder (${dir})`}: the project is the folder above the registry, and toolbox keeps its state (.toolbox/) there`,
    {
      exitCode: ExitCode.registry,
      location: { file: configFile, ...pos },
      hint: `Name a folder inside ${base} (e.g. \`registry: tool_registry\`), or point at another registry with --registry DIR.`,
    },
  );
}

/**
 * Resolve the registry folder, project root and config for a command. Order: --registry, then the
 * nearest config's `registry` (or the tool_registry/ beside it), then the nearest tool_registry/
 * folder at or above the current one. The config is --config, else the nearest one at or above the
 * registry folder when --registry is given (client configs start `serve --registry /abs/path` from
 * anywhere: the registry's own project settings must apply), else the nearest one at or above the
 * current folder. Throws registry_not_found (exit 3) when the registry is missing.
 */
export function resolveProject(opts: ProjectOptions, { mustExist = true } = {}): Project {
  const found = opts.config ? {} : findProject(opts.registry ? resolve(opts.cwd, opts.registry) : opts.cwd);
  const configFile = opts.config ? resolve(opts.cwd, opts.config) : found.config;
  if (opts.config && !existsSync(configFile!)) {
    throw new ToolboxError('config_not_found', `config file not found: ${configFile}`, { exitCode: ExitCode.registry });
  }
  const config = configFile ? loadConfig(configFile) : {};
  let registryDir: string;
  if (opts.registry) registryDir = resolve(opts.cwd, opts.registry);
  else if (configFile && config.registry) registryDir = configRegistry(configFile, config.registry);
  else if (configFile) registryDir = resolve(dirname(configFile), 'tool_registry');
  else registryDir = found.registryDir ?? resolve(opts.cwd, 'tool_registry');

  if (mustExist) {
    let ok: boolean;
    try {
      ok = statSync(registryDir).isDirectory();
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new ToolboxError('registry_not_found', `registry folder not found: ${registryDir}`, {
        exitCode: ExitCode.registry,
        hint: 'Run `toolbox init` to create one, or point at yours with --registry DIR (or `registry:` in toolbox.config.yaml).',
      });
    }
  }
  const root = dirname(registryDir);
  return { root, registryDir, stateDir: join(root, '.toolbox'), config, configFile };
}

// Settings that speak for the user: where their traces go and with which of their headers, whether
// every argument and result is recorded, where their queries are sent and with which of their keys.
// A project's toolbox.config.yaml comes with the project (a cloned repository ships it), so these
// come only from the user: their environment (OTEL_*) or their own config.yaml
// (~/.config/toolbox/config.yaml, policy/user-config.ts). A project that sets one is not an error
// (it must not block work): the key is ignored, and `validate`, `doctor` and `--verbose` say so.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Project } from '../config.js';
import { checkConfigPart } from '../config-schema.js';
import { parseYamlSource } from '../contract/yaml-source.js';
import { ExitCode, ToolboxError } from '../errors.js';
import { loadUserConfig } from './user-config.js';
import { userConfigDir } from '../util/user-dirs.js';
import { readProjectText } from '../util/project-file.js';

/** The keys only the user may set, and what each decides for them. */
export const USER_ONLY_KEYS: { path: string[]; decides: string }[] = [
  {
    path: ['telemetry', 'endpoint'],
    decides: 'where your traces go (with your OTEL_EXPORTER_OTLP_HEADERS, and your arguments if content is captured)',
  },
  { path: ['telemetry', 'capture_content'], decides: 'whether your arguments and results are recorded in traces' },
  {
    path: ['select', 'embeddings'],
    decides: 'where your queries are sent for embedding, and which of your environment variables goes with them',
  },
  {
    path: ['state'],
    decides: 'which Redis receives your call log, breaker state and limits (with the credentials in its URL)',
  },
];

/** A user-only key a project's config sets (and that toolbox ignores). */
export interface IgnoredKey {
  key: string;
  file?: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}

/** Telemetry settings as the telemetry switch takes them (telemetry/state.ts `TelemetryConfig`). */
export interface UserTelemetry {
  endpoint?: string;
  capture_content?: boolean;
  service_name?: string;
}

/** What the user decided, for one project. */
export interface UserSettings {
  telemetry: UserTelemetry;
  /** `select.embeddings` from the user's config.yaml (the shape of select/dense.ts `EmbeddingsConfig`). */
  embeddings?: { url: string; model?: string; api_key_env?: string; weight?: number };
}

const USER_FILE_HINT =
  'Set it in your own ~/.config/toolbox/config.yaml (or the OTEL_* / TOOLBOX_STATE_URL environment variables) if you want it.';

/** The user-only keys the project's config sets, with where (line:column of its config file). */
export function projectUserOnlyKeys(project: Pick<Project, 'config' | 'configFile'>): IgnoredKey[] {
  const set = USER_ONLY_KEYS.filter(({ path }) => {
    let v: unknown = project.config;
    for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    return v !== undefined && v !== null;
  });
  if (set.length === 0) return [];
  let locate: (p: string[]) => { line: number; column: number } = () => ({ line: 1, column: 1 });
  if (project.configFile)
    try {
      const src = parseYamlSource(readProjectText(dirname(project.configFile), project.configFile));
      locate = (p) => src.locate(p);
    } catch {
      /* unreadable now: line 1 */
    }
  return set.map(({ path, decides }) => ({
    key: path.join('.'),
    ...(project.configFile ? { file: project.configFile } : {}),
    ...locate(path),
    message: `${path.join('.')} in the project's config is ignored: it decides ${decides}, which only you may choose`,
    hint: `Remove it from ${project.configFile ?? 'toolbox.config.yaml'}. ${USER_FILE_HINT}`,
  }));
}

// The user's file read once per version of it (size, mtime, inode), not on every call.
let memo: { key: string; value: UserSettings } | undefined;

/**
 * The user's own telemetry and embeddings settings, from their config.yaml (when it counts: theirs,
 * outside the project). The project's `telemetry.service_name` applies when the user sets none (a
 * label, not a destination). Throws user_config_invalid (exit 3, line:column) for a bad value.
 */
export function userSettingsFor(project: Pick<Project, 'root' | 'config'>): UserSettings {
  const dir = userConfigDir();
  let stamp = 'none';
  if (dir)
    try {
      const st = statSync(`${dir}/config.yaml`);
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}:${st.ctimeMs}`;
    } catch {
      /* no file */
    }
  const service = project.config.telemetry?.service_name;
  const key = `${dir}\0${stamp}\0${project.root}\0${service ?? ''}`;
  if (memo?.key === key) return memo.value;
  const value = read(project.root, service);
  memo = { key, value };
  return value;
}

function read(root: string, projectService: string | undefined): UserSettings {
  const user = loadUserConfig(root);
  const part = (path: string[]): unknown => {
    let v: unknown = user.data;
    for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    if (v === undefined || v === null) return undefined;
    const bad = checkConfigPart(path, v)[0];
    if (bad) {
      const at = user.locate(bad.path) ?? { file: user.file ?? 'config.yaml', line: 1, column: 1 };
      throw new ToolboxError('user_config_invalid', `${at.file}:${at.line}:${at.column}: ${bad.message}`, {
        exitCode: ExitCode.registry,
        location: at,
        hint: bad.hint ?? 'See docs/configuration.md, "Your own settings".',
      });
    }
    return v;
  };
  const t = (part(['telemetry']) ?? {}) as UserTelemetry;
  const telemetry: UserTelemetry = {
    ...(t.endpoint ? { endpoint: t.endpoint } : {}),
    ...(t.capture_content !== undefined ? { capture_content: t.capture_content } : {}),
    ...(t.service_name || projectService ? { service_name: t.service_name ?? projectService } : {}),
  };
  const embeddings = part(['select', 'embeddings']) as UserSettings['embeddings'];
  return { telemetry, ...(embeddings ? { embeddings } : {}) };
}

/** The ignored keys as one line each, for `--verbose` and `doctor`. */
export function ignoredKeysText(keys: IgnoredKey[]): string[] {
  return keys.map((k) => `${k.file ?? 'toolbox.config.yaml'}:${k.line}:${k.column}: ${k.message}`);
}

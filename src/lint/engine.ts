import type { ToolboxConfig } from '../config.js';
import type { Diagnostic, Severity } from '../contract/diagnostic.js';
import { ExitCode, ToolboxError, closest } from '../errors.js';
import type { LintFile, LintRule, LintSettings, Report, RuleMeta } from './types.js';

const SEVERITIES = ['error', 'warning', 'info', 'off'];

/** Rules that were split into others: a config naming the old id is told which rules replaced it. */
const REPLACED: Record<string, string[]> = {
  'description-instruction-override': ['poison-override', 'poison-concealment'],
  'description-secret-access': ['poison-secret-env', 'poison-secret-file', 'poison-exfiltration'],
};

function configError(file: string | undefined, message: string, hint: string): ToolboxError {
  return new ToolboxError('config_invalid', `${file ?? 'toolbox.config.yaml'}: ${message}`, {
    exitCode: ExitCode.registry,
    hint,
    ...(file ? { location: { file } } : {}),
  });
}

/**
 * Merge the rules' defaults with `lint.rules` / `lint.options` of toolbox.config.yaml. Unknown
 * rule ids, severities or option names are config errors (exit 3) with "did you mean".
 * `extra` are configurable non-lint checks (such as 'routing').
 */
export function lintSettings(
  rules: LintRule[],
  config: ToolboxConfig,
  configFile?: string,
  extra: RuleMeta[] = [],
): LintSettings {
  const metas = [...rules.map((r) => r.meta), ...extra];
  const byId = new Map(metas.map((m) => [m.id, m]));
  const settings: LintSettings = { severity: {}, options: {} };
  for (const m of metas) {
    settings.severity[m.id] = m.severity;
    settings.options[m.id] = { ...(m.options ?? {}) };
  }
  const lint = config.lint ?? {};
  if (typeof lint !== 'object' || Array.isArray(lint))
    throw configError(configFile, '`lint` must be a mapping', 'Use `lint: { rules: {...}, options: {...} }`.');
  const known = (id: string, where: string) => {
    if (byId.has(id)) return byId.get(id)!;
    const replaced = REPLACED[id];
    if (replaced)
      throw configError(
        configFile,
        `${where}: rule '${id}' was replaced by ${replaced.join(', ')}`,
        'Name the new rules instead (docs/supply-chain.md lists what each one finds).',
      );
    const near = closest(id, byId.keys());
    throw configError(
      configFile,
      `${where}: unknown rule '${id}'.${near.length ? ` Did you mean '${near[0]}'?` : ''}`,
      `Rules: ${[...byId.keys()].join(', ')}.`,
    );
  };
  for (const [id, sev] of Object.entries(lint.rules ?? {})) {
    known(id, 'lint.rules');
    if (!SEVERITIES.includes(String(sev))) {
      throw configError(
        configFile,
        `lint.rules.${id}: '${String(sev)}' is not a severity`,
        `Use one of: ${SEVERITIES.join(', ')}.`,
      );
    }
    settings.severity[id] = sev as Severity | 'off';
  }
  for (const [id, opts] of Object.entries(lint.options ?? {})) {
    const meta = known(id, 'lint.options');
    if (!opts || typeof opts !== 'object' || Array.isArray(opts))
      throw configError(
        configFile,
        `lint.options.${id} must be a mapping`,
        'e.g. `description-too-short: { min: 30 }`.',
      );
    for (const [k, v] of Object.entries(opts)) {
      const def = meta.options?.[k];
      if (def === undefined) {
        const names = Object.keys(meta.options ?? {});
        throw configError(
          configFile,
          `lint.options.${id}: unknown option '${k}'`,
          names.length ? `Options of ${id}: ${names.join(', ')}.` : `${id} takes no options.`,
        );
      }
      if (typeof v !== typeof def)
        throw configError(
          configFile,
          `lint.options.${id}.${k} must be a ${typeof def}`,
          `Default: ${JSON.stringify(def)}.`,
        );
      settings.options[id]![k] = v as number | string | boolean;
    }
  }
  return settings;
}

/**
 * Run every enabled rule over the files. A rule that throws is a bug in toolbox, but it must not
 * stop validation of everything else: it becomes an error diagnostic naming the rule.
 */
export function runLint(
  rules: LintRule[],
  files: LintFile[],
  settings: LintSettings,
  displayPath: (f: string) => string,
): Diagnostic[] {
  return runRules(rules, files, settings, displayPath, 'both');
}

/**
 * The per-file rules (`check`) on one file: what validate runs as it reads each file, so that
 * nothing but what registry-wide rules need stays in memory.
 */
export function lintOneFile(rules: LintRule[], file: LintFile, settings: LintSettings): Diagnostic[] {
  return runRules(rules, [file], settings, (f) => f, 'file');
}

/** The registry-wide rules (`checkAll`) only. */
export function lintRegistry(
  rules: LintRule[],
  files: LintFile[],
  settings: LintSettings,
  displayPath: (f: string) => string,
): Diagnostic[] {
  return runRules(rules, files, settings, displayPath, 'registry');
}

/**
 * What registry-wide rules (`checkAll`) get of a contract: the fields they read (id, name, title,
 * description, annotations.title and the parameters' schema), not loader, sandbox or examples,
 * so that validate keeps little per file in a registry of 50,000 tools.
 */
export function registryView(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['id', 'name', 'title', 'description', 'schema'] as const) if (k in data) out[k] = data[k];
  const a = data.annotations;
  if (a && typeof a === 'object' && !Array.isArray(a) && 'title' in a)
    out.annotations = { title: (a as Record<string, unknown>).title };
  return out;
}

function runRules(
  rules: LintRule[],
  files: LintFile[],
  settings: LintSettings,
  displayPath: (f: string) => string,
  which: 'file' | 'registry' | 'both',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const id = rule.meta.id;
    const severity = settings.severity[id] ?? rule.meta.severity;
    if (severity === 'off') continue;
    const options = settings.options[id] ?? {};
    const emit = (f: LintFile, r: Report) => {
      const pos = f.locate(r.path);
      out.push({
        file: f.file,
        line: pos.line,
        column: pos.column,
        severity,
        rule: id,
        message: r.message,
        path: r.path.join('.'),
        ...(r.hint ? { hint: r.hint } : {}),
      });
    };
    const guard = (f: LintFile | undefined, fn: () => void) => {
      try {
        fn();
      } catch (e) {
        const file = f?.file ?? files[0]?.file ?? '';
        out.push({
          file,
          line: 1,
          column: 1,
          severity: 'error',
          rule: id,
          message: `lint rule '${id}' crashed: ${e instanceof Error ? e.message : String(e)} (a bug in toolbox)`,
        });
      }
    };
    if (rule.check && which !== 'registry') {
      for (const f of files) guard(f, () => rule.check!({ ...f, options, report: (r) => emit(f, r) }));
    }
    if (rule.checkAll && which !== 'file')
      guard(undefined, () => rule.checkAll!({ files, options, report: emit, displayPath }));
  }
  return out;
}

import type { LintRule } from '../types.js';

/**
 * The lint rules, one file each (file name = rule id), imported on first use. Adding a rule:
 * a file in this folder exporting `rule`, and one line here.
 */
export const ruleMap = {
  'description-too-short': async () => (await import('./description-too-short.js')).rule,
  'description-too-long': async () => (await import('./description-too-long.js')).rule,
  'description-vague': async () => (await import('./description-vague.js')).rule,
  'description-placeholder': async () => (await import('./description-placeholder.js')).rule,
  'description-when-to-use': async () => (await import('./description-when-to-use.js')).rule,
  'description-similar': async () => (await import('./description-similar.js')).rule,
  'param-description': async () => (await import('./param-description.js')).rule,
  'param-type': async () => (await import('./param-type.js')).rule,
  'enum-undocumented': async () => (await import('./enum-undocumented.js')).rule,
  'pattern-nested-quantifier': async () => (await import('./pattern-nested-quantifier.js')).rule,
  'contract-invisible-unicode': async () => (await import('./contract-invisible-unicode.js')).rule,
  'poison-override': async () => (await import('./poison-override.js')).rule,
  'poison-concealment': async () => (await import('./poison-concealment.js')).rule,
  'poison-secret-env': async () => (await import('./poison-secret-env.js')).rule,
  'poison-secret-file': async () => (await import('./poison-secret-file.js')).rule,
  'poison-exfiltration': async () => (await import('./poison-exfiltration.js')).rule,
  'poison-tool-steering': async () => (await import('./poison-tool-steering.js')).rule,
  'description-cross-tool': async () => (await import('./description-cross-tool.js')).rule,
  'description-url-or-blob': async () => (await import('./description-url-or-blob.js')).rule,
  'schema-value-instructions': async () => (await import('./schema-value-instructions.js')).rule,
  'description-over-budget': async () => (await import('./description-over-budget.js')).rule,
  'id-provider-name': async () => (await import('./id-provider-name.js')).rule,
} satisfies Record<string, () => Promise<LintRule>>;

export type RuleId = keyof typeof ruleMap;
export const RULE_IDS = Object.keys(ruleMap) as RuleId[];

/** Every lint rule, loaded. */
export async function loadRules(): Promise<LintRule[]> {
  return Promise.all(RULE_IDS.map((id) => ruleMap[id]()));
}

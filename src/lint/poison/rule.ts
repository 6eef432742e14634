// One lint rule per poisoning class, all reading one analysis of the contract (computed once per
// contract object, whichever of the six rules asks first).
import { seenTexts } from './seen.js';
import type { LintRule } from '../types.js';
import { CLASS_INFO, ruleIdOf, type PoisonClass } from './classes.js';
import { detectText, type Finding } from './detect.js';
import type { PathSeg } from '../../contract/yaml-source.js';

/** A finding with where it is and how to name that place. */
export interface ContractFinding extends Finding {
  path: PathSeg[];
  what: string;
}

const cache = new WeakMap<object, ContractFinding[]>();

/** Every poisoning finding of a contract (at most one per class and text). */
export function analyseContract(data: Record<string, unknown>): ContractFinding[] {
  const hit = cache.get(data);
  if (hit) return hit;
  const out: ContractFinding[] = [];
  const texts = seenTexts(data);
  const params = new Set(texts.filter((t) => t.kind === 'key' && t.inParam).map((t) => t.text.toLowerCase()));
  for (const t of texts) {
    for (const f of detectText({ ...t, params })) out.push({ ...f, path: t.path, what: t.what });
  }
  cache.set(data, out);
  return out;
}

/** The lint rule of one class. */
export function poisonRule(cls: PoisonClass): LintRule {
  const info = CLASS_INFO[cls];
  return {
    meta: { id: ruleIdOf(cls), description: info.description, severity: 'error', docs: info.docs },
    check(ctx) {
      for (const f of analyseContract(ctx.data)) {
        if (f.cls !== cls) continue;
        const hidden = f.via ? ` (hidden: ${f.via})` : '';
        ctx.report({
          path: f.path,
          message: `${f.what} ${info.says} [${cls}]${hidden}: "${f.evidence}"`,
          hint: info.hint,
        });
      }
    },
  };
}

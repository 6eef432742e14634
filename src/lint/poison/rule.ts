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
const NONE: ContractFinding[] = [];

/** Every poisoning finding of a contract (at most one per class and text). */
export function analyseContract(data: Record<string, unknown>): ContractFinding[] {
  const hit = cache.get(data);
  if (hit) return hit;
  // The texts alone first; paths and labels only for a contract with findings (most have none).
  const texts = seenTexts(data, false);
  let params: Set<string> | undefined;
  const paramNames = () =>
    (params ??= new Set(texts.filter((t) => t.kind === 'key' && t.inParam).map((t) => t.text.toLowerCase())));
  let hits: { i: number; f: Finding }[] | undefined;
  for (let i = 0; i < texts.length; i++)
    for (const f of detectText(texts[i]!, 0, paramNames)) (hits ??= []).push({ i, f });
  let out = NONE;
  if (hits) {
    const placed = seenTexts(data, true);
    out = hits.map(({ i, f }) => ({ ...f, path: placed[i]!.path, what: placed[i]!.what }));
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

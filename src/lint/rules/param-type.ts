import type { LintRule } from '../types.js';
import { collectParams, hasType } from '../params.js';

/** A parameter (at any depth) with no type (nor enum, const, $ref or typed variants). */
export const rule: LintRule = {
  meta: {
    id: 'param-type',
    description: 'A parameter has no type.',
    severity: 'warning',
    docs: 'Without a type, command-line values stay strings and models may send anything; declare `type:` (string, number, integer, boolean, array, object).',
  },
  check(ctx) {
    for (const p of collectParams(ctx.data)) {
      if (hasType(p.schema)) continue;
      ctx.report({
        path: p.path,
        message: `parameter '${p.name}' has no type`,
        hint: `Add \`type:\` under '${p.name}' (string, number, integer, boolean, array or object).`,
      });
    }
  },
};

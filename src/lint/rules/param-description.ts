import type { LintRule } from '../types.js';
import { collectParams, describedBy } from '../params.js';

/** A parameter (at any depth) with no description: the model has to guess what to put in it. */
export const rule: LintRule = {
  meta: {
    id: 'param-description',
    description: 'A parameter has no description.',
    severity: 'warning',
    docs: 'Models fill arguments from parameter descriptions: say what the value is, its format and an example.',
  },
  check(ctx) {
    for (const p of collectParams(ctx.data)) {
      if (describedBy(p.schema)) continue;
      ctx.report({
        path: p.path,
        message: `parameter '${p.name}' has no description`,
        hint: `Add \`description:\` under '${p.name}': what the value is, its format and an example.`,
      });
    }
  },
};

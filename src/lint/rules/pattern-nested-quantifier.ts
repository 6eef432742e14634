import type { LintRule } from '../types.js';
import type { PathSeg } from '../../contract/yaml-source.js';
import { hasNestedQuantifier } from '../../contract/regex.js';

/** `pattern` / `patternProperties` regexes with a quantified group that contains an unbounded quantifier. */
export const rule: LintRule = {
  meta: {
    id: 'pattern-nested-quantifier',
    description: 'A schema pattern nests quantifiers, as in ^(a+)+$.',
    severity: 'warning',
    docs: 'toolbox matches patterns in linear time, but other validators of the same schema (clients, servers) backtrack: (a+)+ takes seconds on 30 characters there. Write it without the nesting, e.g. ^a+$.',
  },
  check(ctx) {
    const walk = (v: unknown, path: PathSeg[]): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, [...path, i]));
      if (!v || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        const here = [...path, k];
        if (k === 'pattern' && typeof x === 'string' && hasNestedQuantifier(x))
          ctx.report({
            path: here,
            message: `pattern ${JSON.stringify(x)} nests quantifiers (catastrophic backtracking in other validators)`,
            hint: 'Rewrite it without a quantified group that itself contains + or *.',
          });
        if (k === 'patternProperties' && x && typeof x === 'object')
          for (const key of Object.keys(x))
            if (hasNestedQuantifier(key))
              ctx.report({
                path: [...here, key],
                message: `patternProperties key ${JSON.stringify(key)} nests quantifiers`,
                hint: 'Rewrite it without a quantified group that itself contains + or *.',
              });
        if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') walk(x, here);
      }
    };
    walk(ctx.data.schema, ['schema']);
    walk(ctx.data.output_schema, ['output_schema']);
  },
};

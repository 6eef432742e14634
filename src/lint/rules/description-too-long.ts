import type { LintRule } from '../types.js';
import { weightedLength } from '../text.js';

/** A description so long that every prompt that binds the tool pays for it. */
export const rule: LintRule = {
  meta: {
    id: 'description-too-long',
    description: 'Tool description is longer than a model needs to choose the tool.',
    severity: 'warning',
    docs: 'The description is sent with every selection of the tool; keep it to what distinguishes the tool and move details to parameter descriptions. Length counts a CJK character as 3.',
    options: { max: 1024 },
  },
  check(ctx) {
    const d = ctx.data.description;
    if (typeof d !== 'string') return;
    const max = Number(ctx.options.max);
    const len = weightedLength(d);
    if (len <= max) return;
    ctx.report({
      path: ['description'],
      message: `description is too long (${len} characters, at most ${max}; a CJK character counts 3)`,
      hint: "Keep what the tool does and when to use it; move details into the parameters' descriptions.",
    });
  },
};

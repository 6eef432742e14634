import type { LintRule } from '../types.js';
import { weightedLength } from '../text.js';

/** A description too short for a selector (or a model) to know what the tool is for. */
export const rule: LintRule = {
  meta: {
    id: 'description-too-short',
    description: 'Tool description is too short to select the tool by.',
    severity: 'warning',
    docs: 'On-demand loading picks tools by their description: say what the tool does, on what input, and when to use it. Length counts a CJK character as 3.',
    options: { min: 40 },
  },
  check(ctx) {
    const d = ctx.data.description;
    if (typeof d !== 'string') return;
    const min = Number(ctx.options.min);
    const len = weightedLength(d);
    if (len >= min) return;
    ctx.report({
      path: ['description'],
      message:
        len === 0
          ? 'description is empty: the selector has nothing to match queries against'
          : `description is too short (${len} of at least ${min} characters; a CJK character counts 3)`,
      hint: 'Say what the tool does, what it needs and when to use it, e.g. "Look up the current weather for a city. Use when the user asks about weather."',
    });
  },
};

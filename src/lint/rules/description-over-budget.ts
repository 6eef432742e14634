import type { LintRule } from '../types.js';

/** A description longer than what a client passes to the model: the tail is cut silently. */
export const rule: LintRule = {
  meta: {
    id: 'description-over-budget',
    description: 'Tool description is longer than the budget an agent client shows the model.',
    severity: 'warning',
    docs: 'Clients cut long tool descriptions without telling anyone (Claude Code keeps the first 2048 characters of an MCP tool description): what the reviewer reads and what the model gets then differ, and text can hide past the cut. Counted in characters (code points), as clients count.',
    options: { max: 2048 },
  },
  check(ctx) {
    const d = ctx.data.description;
    if (typeof d !== 'string') return;
    const max = Number(ctx.options.max);
    const len = [...d].length;
    if (len <= max) return;
    ctx.report({
      path: ['description'],
      message: `description is ${len} characters; clients with a ${max}-character budget drop the last ${len - max}`,
      hint: "Shorten it so all of it reaches the model; set lint.options.description-over-budget.max to your client's budget.",
    });
  },
};

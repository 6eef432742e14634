import type { LintRule } from '../types.js';
import { formatsRefusing, NAME_RULES, portableName } from '../../contract/provider-names.js';

const LABEL = { openai: 'OpenAI', anthropic: 'Anthropic', mcp: 'MCP' } as const;

/** A tool id that OpenAI or Anthropic cannot take as a tool name (they allow no `.`). */
export const rule: LintRule = {
  meta: {
    id: 'id-provider-name',
    description: 'Tool id is not a valid tool name for OpenAI or Anthropic (letters, digits, _ and - only, ≤ 64).',
    severity: 'warning',
    docs: 'The id is the name the model calls. OpenAI and Anthropic reject a request whose tool names do not match ^[a-zA-Z0-9_-]{1,64}$, so `select --format openai|anthropic` refuses such ids. Rename the tool.',
  },
  check(ctx) {
    const id = ctx.data.id;
    if (typeof id !== 'string' || !id) return;
    const refused = formatsRefusing(id);
    if (!refused.length) return;
    ctx.report({
      path: ['id'],
      message: `id '${id}' cannot be a tool name for ${refused.map((f) => LABEL[f]).join(' or ')} (${NAME_RULES[refused[0]!].allowed}); select --format ${refused.join('|')} refuses it`,
      hint: `Rename it, e.g. '${portableName(id)}'.`,
    });
  },
};

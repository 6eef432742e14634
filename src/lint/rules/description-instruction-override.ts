import type { LintRule } from '../types.js';
import { OVERRIDE_PATTERNS, firstMatch, modelTexts } from '../poison.js';

/** Text addressed to the model that overrides its instructions or hides things from the user. */
export const rule: LintRule = {
  meta: {
    id: 'description-instruction-override',
    description: 'Text a model reads tries to override its instructions or hide something from the user.',
    severity: 'error',
    docs: 'Phrases such as "ignore previous instructions", "do not tell the user", "忽略之前的指令", "不要告诉用户" in a name, description or schema value are prompt injection (tool poisoning): a description says what the tool does, never what the model must obey or conceal.',
  },
  check(ctx) {
    for (const t of modelTexts(ctx.data)) {
      const found = firstMatch(t.text, OVERRIDE_PATTERNS);
      if (!found) continue;
      ctx.report({
        path: t.path,
        message: `${t.what} contains an instruction to the model: "${found}"`,
        hint: 'Remove it. If the contract was imported, the server that wrote it is not to be trusted: check `toolbox import mcp --check`.',
      });
    }
  },
};

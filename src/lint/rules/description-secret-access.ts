import type { LintRule } from '../types.js';
import { SECRET_PATHS, asksForSecret, modelTexts } from '../poison.js';

// Sentences, so that "needs an API key" in one sentence and "send" in another do not pair up.
const SENTENCES = /[^.;!?。；！？\n]+/g;

/** Text that points the model at secret files, or tells it to read or send credentials. */
export const rule: LintRule = {
  meta: {
    id: 'description-secret-access',
    description:
      'Text a model reads names secret files (~/.ssh, id_rsa, .env) or tells it to read or send credentials.',
    severity: 'error',
    docs: 'A tool description that mentions ~/.ssh/id_rsa or .env, or asks to "include the API key" / "读取密钥", steers the model into exfiltrating secrets through the tool\'s arguments. Secrets a tool needs come from the sandbox env allow-list, never through the model.',
  },
  check(ctx) {
    for (const t of modelTexts(ctx.data)) {
      const path = SECRET_PATHS.exec(t.text);
      let found = path ? path[0].trim() : undefined;
      if (!found) {
        for (const s of t.text.match(SENTENCES) ?? []) {
          if (asksForSecret(s)) {
            found = s.trim().slice(0, 100);
            break;
          }
        }
      }
      if (!found) continue;
      ctx.report({
        path: t.path,
        message: `${t.what} points the model at secrets: "${found}"`,
        hint: 'Remove it. A tool that needs a credential lists its variable in sandbox.env / requires.env; the model never handles it.',
      });
    }
  },
};

import type { LintRule } from '../types.js';
import { modelTexts } from '../model-texts.js';

const PATTERNS: { re: RegExp; what: string }[] = [
  { re: /\b(https?|ftp|wss?|file):\/\/[^\s"'<>）)]+/i, what: 'a URL' },
  { re: /\bdata:[\w/+.-]+;base64,/i, what: 'a data: URI' },
  { re: /\bwww\.[a-z0-9-]+\.[a-z]{2,}\S*/i, what: 'a web address' },
  { re: /(?:%[0-9a-f]{2}){6,}/i, what: 'a percent-encoded blob' },
  { re: /(?:\\x[0-9a-f]{2}){4,}|(?:\\u[0-9a-f]{4}){4,}/i, what: 'escaped bytes' },
  { re: /\b[0-9a-f]{40,}\b/i, what: 'a long hex string' },
];

// Base64: a long run of its alphabet with letters of both cases and digits (not an ordinary word).
const BASE64 = /[A-Za-z0-9+/_-]{40,}={0,2}/g;
const looksEncoded = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s);

/** URLs and encoded blobs in text a model reads. */
export const rule: LintRule = {
  meta: {
    id: 'description-url-or-blob',
    description: 'A URL or an encoded blob (base64, hex, percent-encoding) in text a model reads.',
    severity: 'warning',
    docs: 'Descriptions are read by the model, not by people: a URL invites it to send data there, and an encoded blob hides text from reviewers while the model can still decode it. Keep endpoints in loader_config; describe, do not encode.',
  },
  check(ctx) {
    for (const t of modelTexts(ctx.data)) {
      let found: string | undefined;
      for (const p of PATTERNS) {
        const m = p.re.exec(t.text);
        if (m) {
          found = `${p.what} (${m[0].slice(0, 60)})`;
          break;
        }
      }
      if (!found) {
        const b = (t.text.match(BASE64) ?? []).find(looksEncoded);
        if (b) found = `what looks like base64 (${b.slice(0, 40)}…, ${b.length} characters)`;
      }
      if (!found) continue;
      ctx.report({
        path: t.path,
        message: `${t.what} contains ${found}`,
        hint: 'Move endpoints to loader_config and remove encoded text; if a URL really belongs here, turn this rule to "off" for the project in toolbox.config.yaml.',
      });
    }
  },
};

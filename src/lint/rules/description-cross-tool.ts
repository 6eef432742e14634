import type { LintRule } from '../types.js';
import { modelTexts } from '../model-texts.js';
import { detectText } from '../poison/detect.js';

// Verbs around a tool name that make the text an order rather than a cross-reference.
const ORDER =
  /\b(call|invoke|run|use|avoid|never|don't|do\s+not|instead|before|after|first|always|must)\b|(调用|使用|不要|禁止|切勿|先|之前|之后|改用|必须|务必)/i;

// Words that can be a tool id: letters, digits and _, optionally joined by '.' or '-' (ids like send-mail.v2).
const WORD_RUN = /[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu;

/**
 * The first other tool's id named in a sentence, matched on word boundaries. Looked up per word in a Set, so
 * the rule stays linear in the registry size (a regex of every other id per file was quadratic: 4 s at 1,000
 * tools).
 */
function namedTool(sentence: string, ids: Set<string>, own: unknown): string | undefined {
  for (const [run] of sentence.matchAll(WORD_RUN)) {
    const parts = run.split(/(?=[.-])/);
    for (let i = 0; i < parts.length; i++) {
      let id = '';
      for (let j = i; j < parts.length; j++) {
        id += j === i ? parts[j]!.replace(/^[.-]/, '') : parts[j]!;
        if (id !== own && ids.has(id)) return id;
      }
    }
  }
  return undefined;
}

/** A description that tells the model to call or avoid other tools (by name, or all of them). */
export const rule: LintRule = {
  meta: {
    id: 'description-cross-tool',
    description: 'A description names another tool of the registry next to an order word.',
    severity: 'warning',
    docs: 'A description that names another tool of the registry next to an order ("call send_email after", "必须调用 send_email") may steer the agent\'s choices (tool shadowing); often it is only a cross-reference, hence a warning. Clear orders about other tools are poison-tool-steering errors.',
  },
  checkAll(ctx) {
    const ids = new Set<string>();
    for (const f of ctx.files) if (typeof f.data.id === 'string' && f.data.id.length >= 3) ids.add(f.data.id);
    for (const f of ctx.files) {
      const own = f.data.id;
      for (const t of modelTexts(f.data)) {
        if (t.kind !== 'prose') continue;
        let found: string | undefined;
        // A '.' ends a sentence only before a space or the end: ids such as send-mail.v2 have dots.
        for (const s of t.text.split(/[;!?。；！？\n]+|\.(?:\s+|$)/)) {
          const m = ORDER.test(s) ? namedTool(s, ids, own) : undefined;
          if (m) {
            found = `mentions tool '${m}': "${s.trim().slice(0, 100)}"`;
            break;
          }
        }
        if (!found) continue;
        // An order the poison-tool-steering rule reports as an error is not reported twice.
        if (detectText({ text: t.text, kind: t.kind, inParam: false }).some((f) => f.cls === 'tool-steering')) continue;
        ctx.report(f, {
          path: t.path,
          message: `${t.what} steers the model's choice of other tools: ${found}`,
          hint: "Say what this tool does and when it fits; don't tell the model to call or avoid other tools.",
        });
      }
    }
  },
};

import type { LintRule } from '../types.js';
import { firstMatch, modelTexts } from '../poison.js';

// Steering without a name: "do not use any other tool", "always call this tool first".
const STEERING: RegExp[] = [
  /\b(do\s+not|don't|never)\s+(use|call|invoke|run)\s+(any\s+)?other\s+tools?/i,
  /\binstead\s+of\s+(any|all)\s+other\s+tools?/i,
  /\b(always|must)\s+(call|use|invoke|run)\s+this\s+tool\s+(first|before|instead)/i,
  /\bbefore\s+(using|calling)\s+any\s+(other\s+)?tools?/i,
  /(不要|不得|禁止|切勿)(使用|调用)(任何)?其他(的)?工具/,
  /(必须|务必|总是|始终)(先|首先|优先)?(调用|使用)(本|此|这个)工具/,
  /(调用|使用)任何(其他)?工具(之前|前)/,
];

// Verbs around a tool name that make the text an order rather than a cross-reference.
const ORDER =
  /\b(call|invoke|run|use|avoid|never|don't|do\s+not|instead|before|after|first|always|must)\b|(调用|使用|不要|禁止|切勿|先|之前|之后|改用|必须|务必)/i;

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A description that tells the model to call or avoid other tools (by name, or all of them). */
export const rule: LintRule = {
  meta: {
    id: 'description-cross-tool',
    description: 'A description tells the model to call or avoid another tool.',
    severity: 'warning',
    docs: 'A tool that tells the model which other tools to call or avoid ("never use send_email", "不要使用其他工具") can hijack the agent\'s choices (tool shadowing). Describe what this tool does; let the selector and the model choose.',
  },
  checkAll(ctx) {
    const ids = new Set<string>();
    for (const f of ctx.files) if (typeof f.data.id === 'string' && f.data.id.length >= 3) ids.add(f.data.id);
    for (const f of ctx.files) {
      const own = f.data.id;
      const others = [...ids].filter((id) => id !== own);
      const named = others.length
        ? new RegExp(`(^|[^\\p{L}\\p{N}_])(${others.map(esc).join('|')})($|[^\\p{L}\\p{N}_])`, 'u')
        : undefined;
      for (const t of modelTexts(f.data)) {
        if (t.kind !== 'prose') continue;
        let found = firstMatch(t.text, STEERING);
        if (!found && named) {
          for (const s of t.text.split(/[.;!?。；！？\n]+/)) {
            const m = named.exec(s);
            if (m && ORDER.test(s)) {
              found = `mentions tool '${m[2]}': "${s.trim().slice(0, 100)}"`;
              break;
            }
          }
        } else if (found) found = `"${found}"`;
        if (!found) continue;
        ctx.report(f, {
          path: t.path,
          message: `${t.what} steers the model's choice of other tools: ${found}`,
          hint: "Say what this tool does and when it fits; don't tell the model to call or avoid other tools.",
        });
      }
    }
  },
};

import type { JsonSchema, ToolEntry } from '../contract/types.js';
import { displayWidth } from '../util/width.js';
import { choicesOf, deref, propertiesOf, requiredOf, typesOf } from './schema-walk.js';

/** One parameter of a tool as `run --help` lists it. */
export interface ParamInfo {
  flag: string;
  type: string;
  required: boolean;
  default?: unknown;
  choices?: unknown[];
  description?: string;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The tool's parameters as flags (nested object properties as --a.b), from its JSON Schema. */
export function toolParams(
  root: JsonSchema,
  schema: JsonSchema = root,
  prefix = '',
  parentRequired = true,
  depth = 0,
): ParamInfo[] {
  const out: ParamInfo[] = [];
  const req = new Set(requiredOf(schema, root));
  for (const [k, raw] of Object.entries(propertiesOf(schema, root))) {
    const s = deref(raw, root) ?? {};
    const types = typesOf(s, root);
    const choices = choicesOf(s, root);
    const items = types.includes('array') ? typesOf(deref(s.items, root), root) : [];
    const type = choices
      ? choices.map(show).join('|')
      : types.includes('array')
        ? `${items.join('|') || 'value'}[]`
        : types.join('|') || 'any';
    out.push({
      flag: `--${prefix}${k}`,
      type,
      required: parentRequired && req.has(k),
      ...('default' in s ? { default: s.default } : {}),
      ...(choices ? { choices } : {}),
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
    });
    const nested = propertiesOf(s, root);
    if (depth < 3 && types.includes('object') && Object.keys(nested).length) {
      out.push(...toolParams(root, s, `${prefix}${k}.`, parentRequired && req.has(k), depth + 1));
    }
  }
  return out;
}

/** `toolbox run <id> --help`: the tool's usage generated from its schema. */
export function toolUsage(entry: ToolEntry): string {
  const c = entry.contract;
  const params = toolParams(c.schema);
  const lines: string[] = [];
  const req = params.filter((p) => p.required).map((p) => `${p.flag} <${p.type}>`);
  lines.push(
    `Usage: toolbox run ${c.id}${req.length ? ' ' + req.join(' ') : ''}${params.some((p) => !p.required) ? ' [options]' : ''}`,
  );
  lines.push('', `${c.name} — ${c.description.trim()}`, '');
  if (params.length === 0) lines.push('This tool takes no parameters.');
  else {
    lines.push('Parameters:');
    const heads = params.map((p) => `  ${p.flag} <${p.type}>`);
    const w = Math.min(40, Math.max(...heads.map(displayWidth)));
    params.forEach((p, i) => {
      const notes = [p.required ? 'required' : '', 'default' in p ? `default: ${show(p.default)}` : ''].filter(Boolean);
      const text = [p.description ?? '', notes.length ? `(${notes.join('; ')})` : ''].filter(Boolean).join(' ');
      const head = heads[i]!;
      lines.push(
        displayWidth(head) > w
          ? `${head}\n${' '.repeat(w + 2)}${text}`
          : `${head}${' '.repeat(w - displayWidth(head))}  ${text}`,
      );
    });
  }
  lines.push(
    '',
    'Arguments: booleans as --flag / --no-flag; arrays by repeating the flag (or a JSON array);',
    "objects as --a.b value or a JSON object; or all at once: --args '<json>', --args-file F, or JSON on stdin.",
    'Run options: --timeout <500ms|30s|2m>  --user U  --role R  --session ID  --out DIR  --json  --verbose',
    `Contract: ${entry.file}:${entry.line ?? 1}`,
  );
  return lines.join('\n') + '\n';
}

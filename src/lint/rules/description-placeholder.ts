import type { LintRule } from '../types.js';
import type { PathSeg } from '../../contract/yaml-source.js';
import { collectParams } from '../params.js';

// Upper-case markers only: "todo list" is a real thing a tool can manage, "TODO" is not.
const PATTERNS: { re: RegExp; label: string }[] = [
  { re: /\b(TODO|TBD|FIXME|XXX|TBA)\b/, label: '$1' },
  { re: /\b[xX]{3,}\b/, label: 'xxx' },
  { re: /\blorem\b|\bipsum\b/i, label: 'lorem ipsum' },
  { re: /(待定|待补充|待填写|待完善|待添加|占位符?|此处填写|这里填写)/, label: '$1' },
  {
    re: /\b(description goes here|add (a )?description|your description|describe (your|the) tool|placeholder)\b/i,
    label: '$1',
  },
  { re: /^\s*(\.\.\.|…|-|\?+|n\/a)\s*$/i, label: 'only "$1"' },
];

function placeholderIn(text: string): string | undefined {
  for (const p of PATTERNS) {
    const m = p.re.exec(text);
    if (m) return p.label.replace('$1', m[1] ?? m[0]);
  }
  return undefined;
}

/** Placeholder text left in a name or description (TODO, TBD, lorem ipsum, 待定, xxx). */
export const rule: LintRule = {
  meta: {
    id: 'description-placeholder',
    description: 'Placeholder text (TODO, TBD, lorem ipsum, 待定, xxx) in a name or description.',
    severity: 'error',
    docs: 'Models read names and descriptions literally; a placeholder makes the tool unselectable or misused. Write the real text.',
  },
  check(ctx) {
    const targets: { path: PathSeg[]; what: string; text: unknown }[] = [
      { path: ['name'], what: 'name', text: ctx.data.name },
      { path: ['description'], what: 'description', text: ctx.data.description },
    ];
    for (const p of collectParams(ctx.data)) {
      targets.push({
        path: [...p.path, 'description'],
        what: `description of parameter '${p.name}'`,
        text: p.schema.description,
      });
    }
    for (const t of targets) {
      if (typeof t.text !== 'string') continue;
      const found = placeholderIn(t.text);
      if (!found) continue;
      ctx.report({
        path: t.path,
        message: `${t.what} contains placeholder text (${found})`,
        hint: 'Replace it with the real text: what it is, in the words a user would use.',
      });
    }
  },
};

import type { LintRule } from '../types.js';
import { isGeneric, termWords } from '../text.js';

/** A description made only of generic verbs and nouns ("处理文件", "handles files", "does stuff"). */
export const rule: LintRule = {
  meta: {
    id: 'description-vague',
    description: 'Tool description uses only generic words (handle, process, data, file, 处理, 文件…).',
    severity: 'error',
    docs: 'A description like "handles files" matches every query and none: name the specific thing the tool acts on, what it does to it, and what it returns.',
  },
  check(ctx) {
    const d = ctx.data.description;
    if (typeof d !== 'string' || !d.trim()) return;
    const ts = termWords(d);
    const generic = ts.filter((t) => isGeneric(t.term));
    if (generic.length === 0 || generic.length < ts.length) return;
    const shown = [...new Set(generic.map((t) => t.word))].slice(0, 6).join(', ');
    ctx.report({
      path: ['description'],
      message: `description is vague: it has only generic words (${shown}) and nothing that says which data, format or service the tool works on`,
      hint: 'Be specific, e.g. "处理文件" → "把 PDF 文件转换为纯文本", "handles files" → "Extracts the text of a PDF file".',
    });
  },
};

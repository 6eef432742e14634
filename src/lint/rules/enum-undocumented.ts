import type { LintRule } from '../types.js';
import { collectParams, describedBy } from '../params.js';

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * Values of an enum the description does not explain. Accepted explanations: the description
 * mentions each value, or `enumDescriptions` / `x-enum-descriptions` lists one per value, or the
 * values are written as `oneOf: [{ const, description }]`.
 */
function unexplained(s: Record<string, unknown>): unknown[] {
  const values = s.enum;
  if (!Array.isArray(values) || values.length === 0) return [];
  for (const key of ['enumDescriptions', 'x-enum-descriptions', 'x-enumDescriptions']) {
    const d = s[key];
    if (Array.isArray(d) && d.length >= values.length && d.every((x) => typeof x === 'string' && x.trim())) return [];
    if (isObj(d) && values.every((v) => typeof d[String(v)] === 'string')) return [];
  }
  const text = (describedBy(s) ?? '').toLowerCase();
  return values.filter((v) => !mentions(text, String(v).toLowerCase()));
}

// Whole-word match, so the value "c" is not "mentioned" by the c in "city".
function mentions(text: string, value: string): boolean {
  if (!value) return true;
  if (/[\u3400-\u9fff]/.test(value)) return text.includes(value);
  const esc = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${esc}($|[^\\p{L}\\p{N}_])`, 'u').test(text);
}

/** An enum parameter whose values are not explained anywhere. */
export const rule: LintRule = {
  meta: {
    id: 'enum-undocumented',
    description: 'An enum parameter does not explain its values.',
    severity: 'warning',
    docs: 'A bare list of values ("c", "f") leaves the model guessing: name each value in the description and say what it means, or use enumDescriptions.',
  },
  check(ctx) {
    for (const p of collectParams(ctx.data)) {
      const missing = unexplained(p.schema);
      if (missing.length === 0) continue;
      const shown =
        missing
          .slice(0, 5)
          .map((v) => JSON.stringify(v))
          .join(', ') + (missing.length > 5 ? ', …' : '');
      ctx.report({
        path: [...p.path, 'enum'],
        message: `enum of parameter '${p.name}' is not explained: the description does not mention ${shown}`,
        hint: `Say what each value means in '${p.name}'s description (e.g. "c: Celsius, f: Fahrenheit"), or add enumDescriptions with one line per value.`,
      });
    }
  },
};

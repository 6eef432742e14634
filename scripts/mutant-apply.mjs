// A Stryker mutant applied to a source as text, for `npm run mutate:recheck` (scripts/mutate-recheck.mjs).
// Stryker's replacement is the mutated node printed on its own, without the parentheses the node needs
// where it stands: `x && y || z` mutated at `x && y` is printed `x || y`, and pasted back into `… && w`
// it would read `x || y && w`, a different mutant than the one Stryker ran. So an expression's replacement
// is pasted in parentheses. A block (a function body `{}`) and a string literal (it may be an import
// path or a property key) are never wrapped: they are whole syntax, not an operand.
const UNWRAPPED = new Set(['BlockStatement', 'StringLiteral']);

/** The source with the mutant's replacement (Stryker's lines and columns are 1-based, the end exclusive). */
export function applyMutant(source, { location: { start, end }, replacement, mutatorName }) {
  const lines = source.split('\n');
  const offset = (p) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  const text = UNWRAPPED.has(mutatorName) ? replacement : `(${replacement})`;
  return source.slice(0, offset(start)) + text + source.slice(offset(end));
}

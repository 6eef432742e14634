import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ExitCode, ToolboxError } from '../errors.js';
import type { Diagnostic } from '../contract/diagnostic.js';
import { parseYamlSource } from '../contract/yaml-source.js';
import { MAX_CONTRACT_BYTES } from '../contract/parse.js';
import { readProjectText } from '../util/project-file.js';
import type { Registry } from '../registry/registry.js';
import { docStats } from './model.js';
import { parseQuery, scoreAll, scoreDocCover } from './query.js';
import { cutOff } from './shape.js';
import { smallTalk } from './small-talk.js';
import { correctTypos } from './typos.js';
import { openIndex } from './store.js';

/**
 * Routing check used by `toolbox validate`: every contract's `examples` are queries for the
 * selector; a tool whose own example does not rank it in the top `top` gets a warning (rule
 * 'routing') at that example's line, naming the tool that won instead.
 *
 * The example being tested is left out of its own tool (leave-one-out): otherwise every example
 * would trivially find itself in the `examples` field and the check could never fail. What is
 * measured is whether the rest of the contract (and its other examples) routes the query.
 *
 * An example that would select nothing is reported too (issue 35): one the small-talk gate stops
 * ("what day is it today" before the gate knew questions for a date), or one whose tool `select`
 * would cut off (it matches only single characters, or scores under the relative cut-off).
 */
export async function checkRouting(
  registry: Registry,
  opts: { top: number; signal?: AbortSignal } = { top: 3 },
): Promise<Diagnostic[]> {
  const withExamples = registry.entries.filter((e) => Array.isArray(e.contract.examples) && e.contract.examples.length);
  if (!withExamples.length || registry.entries.length < 2) return [];
  const cancelled = () => new ToolboxError('cancelled', 'cancelled', { exitCode: ExitCode.cancelled });
  // Aborted already (e.g. SIGINT during the rest of validate): stop before opening the index.
  if (opts.signal?.aborted) throw cancelled();
  const index = await openIndex(registry.project, { registry });
  const pos = new Map(index.tools.map((t, i) => [t.id, i]));
  const out: Diagnostic[] = [];
  let last = performance.now();
  for (const entry of withExamples) {
    // Let SIGINT/SIGTERM handlers run on a large registry, and stop when they abort.
    if (performance.now() - last > 50) {
      await new Promise((r) => setImmediate(r));
      last = performance.now();
      if (opts.signal?.aborted) throw cancelled();
    }
    const c = entry.contract;
    const self = pos.get(c.id);
    if (self === undefined) continue;
    let locate: ((j: number) => { line: number; column: number }) | undefined;
    c.examples!.forEach((example, j) => {
      const report = (message: string, won?: string) => {
        locate ??= exampleLocator(entry.file);
        const at = locate(j);
        out.push({
          file: entry.file,
          line: at.line,
          column: at.column,
          severity: 'warning',
          rule: 'routing',
          message,
          path: `examples.${j}`,
          hint: won
            ? `Make the description say what sets '${c.id}' apart from '${won}' (and use the words people use), or fix the example.`
            : `Use the example's words in the description, name or parameters of '${c.id}'.`,
        });
      };
      const gate = smallTalk(example, undefined, (id) => pos.has(id));
      if (gate) {
        report(
          `example "${example}" selects nothing: it reads as small talk (task weight ${Math.round(gate.weight * 100) / 100}, 1 needed)`,
        );
        return;
      }
      // The query as `select` reads it, typos matched to the registry's words too (index.ts rank()),
      // where the registry's words are those without this example (leave-one-out): a word only it
      // has is not known, else its own typos would never be read as typos.
      const q = parseQuery(example);
      const ownStats = docStats({ ...c, examples: c.examples!.filter((_, k) => k !== j) });
      const known = (t: string) => (index.lex.terms.get(t)?.n ?? 0) > 1 || ownStats.tf.some((f) => t in f);
      correctTypos(q, index.lex, undefined, example, known);
      const cover = new Float64Array(index.tools.length);
      const scores = scoreAll(index.lex, q, undefined, cover);
      const own = scoreDocCover(index.lex, ownStats, q);
      scores[self] = own.score;
      cover[self] = own.cover;
      const mine = scores[self]!;
      let rank = 1;
      let winner = -1;
      for (let i = 0; i < scores.length; i++) {
        if (i === self) continue;
        if (scores[i]! > mine || (scores[i] === mine && i < self && mine > 0)) rank++;
        if (winner < 0 || scores[i]! > scores[winner]!) winner = i;
      }
      const won = winner >= 0 && scores[winner]! > 0 ? index.tools[winner]!.id : undefined;
      if (mine > 0 && rank <= opts.top) {
        // In the top K by score, but would select show it? The cut-off drops single-character matches.
        const order = [...scores.keys()].filter((d) => scores[d]! >= mine && scores[d]! > 0);
        if (
          cutOff(
            order.sort((a, b) => scores[b]! - scores[a]!),
            scores,
            cover,
          ).includes(self)
        )
          return;
        report(
          `example "${example}" ranks tool '${c.id}' #${rank} but select would cut it off (it matches only single characters of the example, or scores under 0.2 × the first tool)`,
        );
        return;
      }
      const message =
        mine === 0
          ? `example "${example}" does not match tool '${c.id}' at all${won ? `; '${won}' ranks first` : ''}`
          : `example "${example}" ranks tool '${c.id}' #${rank}, not in the top ${opts.top}; '${won}' ranks first`;
      report(message, won);
    });
  }
  return out;
}

function exampleLocator(file: string): (j: number) => { line: number; column: number } {
  try {
    const src = parseYamlSource(readProjectText(dirname(file), file, { max: MAX_CONTRACT_BYTES }));
    return (j) => src.locate(['examples', j]);
  } catch {
    return () => ({ line: 1, column: 1 });
  }
}

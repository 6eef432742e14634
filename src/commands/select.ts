import type { CommandInfo } from './types.js';
import { resolveProject } from '../config.js';
import { usageError } from '../errors.js';
import { printJson, type CommandContext } from '../output/context.js';
import { renderTable } from '../output/table.js';
import { selectTools, type Selection } from '../select/index.js';
import { surfaceWords } from '../select/tokenize.js';
import { describeEmpty } from '../select/why-empty.js';
import { demotionText } from '../select/destructive.js';
import { DEFINITION_FORMATS, toDefinitions, type DefinitionFormat } from '../select/definitions.js';
import { toolReferenceResult, toolSearchOutput } from '../select/deferral.js';

/** Parse --top: a positive integer. */
export function parseTop(v: unknown, flag = '--top'): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw usageError('invalid_top', `${flag} must be a positive integer, got '${String(v)}'`, `For example: ${flag} 5`);
  return n;
}

/** `toolbox select "<query>"`: the tools a query would get, with scores, why, and the token saving. */
export async function selectCommand(
  ctx: CommandContext,
  args: unknown[],
  opts: Record<string, unknown>,
  cmd: CommandInfo,
): Promise<number> {
  const query = String(args[0] ?? '');
  if (!query.trim())
    throw usageError('empty_query', 'the query is empty', 'Say what the user asked: toolbox select "weather in Paris"');
  if (opts.user && opts.role)
    throw usageError('conflicting_options', '--user and --role are mutually exclusive', 'Pass one of them.');
  const fromCli = cmd.getOptionValueSource('top') === 'cli';
  const project = resolveProject({ cwd: ctx.io.cwd, registry: ctx.opts.registry, config: ctx.opts.config });
  const top = fromCli ? parseTop(opts.top) : (project.config.select?.top ?? parseTop(opts.top));
  const minScore = opts.minScore === undefined ? undefined : Number(opts.minScore);
  if (minScore !== undefined && !(Number.isFinite(minScore) && minScore >= 0))
    throw usageError(
      'invalid_min_score',
      `--min-score must be a number ≥ 0, got '${String(opts.minScore)}'`,
      'For example: --min-score 2',
    );
  const format = opts.format as string;
  const callId = opts.callId as string | undefined;
  // A tool_result / tool_search_output answers one call of the model: without its id the API refuses it.
  if ((format === 'tool-reference' || format === 'tool-search-output') && !callId?.trim())
    throw usageError(
      'missing_call_id',
      `--format ${format} needs --call-id: the id of the model's ${format === 'tool-reference' ? 'tool_use block (tool_use_id)' : 'tool_search_call (call_id)'} this answers`,
      `For example: toolbox select "${query.replace(/["\\$`]/g, '')}" --format ${format} --call-id ${format === 'tool-reference' ? 'toolu_01' : 'call_01'}`,
    );
  const explain = Array.isArray(opts.explain)
    ? (opts.explain as string[])
        .flatMap((x) => x.split(','))
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
  const sel = await selectTools(project, query, {
    top,
    minScore,
    explain,
    session: opts.session as string | undefined,
    tokens: true,
    env: ctx.io.env,
    signal: ctx.io.signal,
    caller:
      opts.user || opts.role
        ? { user: opts.user as string | undefined, role: opts.role as string | undefined }
        : undefined,
  });
  for (const w of sel.warnings) ctx.io.stderr.write(`${ctx.style.yellow('warning:')} ${w}\n`);
  if (format === 'tool-reference')
    printJson(
      ctx,
      toolReferenceResult(
        sel.results.map((r) => r.id),
        callId!,
      ),
    );
  else if (format === 'tool-search-output')
    printJson(
      ctx,
      toolSearchOutput(
        sel.results.map((r) => r.entry.contract),
        callId!,
      ),
    );
  else if ((DEFINITION_FORMATS as readonly string[]).includes(format)) {
    printJson(
      ctx,
      toDefinitions(
        sel.results.map((r) => r.entry.contract),
        format as DefinitionFormat,
      ),
    );
  } else if (ctx.opts.json) printJson(ctx, toJson(sel));
  else printHuman(ctx, sel, { detail: !!(opts.explain || ctx.opts.verbose), minScore });
  return 0;
}

function toJson(sel: Selection) {
  return {
    query: sel.query,
    results: sel.results.map((r) => ({
      id: r.id,
      score: round(r.score),
      name: r.entry.contract.name,
      description: r.entry.contract.description,
      file: r.entry.file,
      why: r.why.map((w) => ({ ...w, score: round(w.score) })),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.dense !== undefined ? { lexical: round(r.lexical), dense: round(r.dense) } : {}),
      ...(r.demoted ? { demoted: r.demoted } : {}),
    })),
    tokens: sel.tokens,
    ...(sel.history ? { history: sel.history } : {}),
    ...(sel.withheld ? { withheld: sel.withheld } : {}),
    ...(sel.empty ? { why_empty: sel.empty } : {}),
    ...(sel.explained ? { explain: sel.explained } : {}),
    warnings: sel.warnings,
  };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

function printHuman(ctx: CommandContext, sel: Selection, o: { detail: boolean; minScore?: number }): void {
  const s = ctx.style;
  // Why the list is empty (pinned tools aside), and where each tool named by --explain stands.
  if (sel.empty) ctx.io.stderr.write(`${describeEmpty(sel.empty, sel.query, o)}\n`);
  for (const v of sel.explained ?? []) ctx.io.stderr.write(`${s.bold(v.id)}: ${v.detail}\n`);
  if (!sel.results.length) return;
  const words = surfaceWords(sel.query); // the user's words, not their stems
  // A glossary translation is shown as the query word it came from ("北京 (translated)"), never as a
  // stem; Chinese in the characters the user wrote (traditional ones are folded in the index).
  // A typo's correction (a Latin word standing in for another) as the registry's word and what was typed.
  const latin = /^[a-z]+$/;
  const word = (w: Selection['results'][number]['why'][number]) => {
    const from = w.via && (words.get(w.via) ?? w.via);
    if (from && latin.test(w.term) && latin.test(w.via!)) return `${w.term}, typed ${from}`;
    return from ?? words.get(w.term) ?? w.term;
  };
  const why = (r: Selection['results'][number]) =>
    [...new Set(r.why.slice(0, 4).map((w) => `${word(w)}${w.session ? '*' : ''} (${w.fields.join(', ')})`))].join('; ');
  const rows = sel.results.map((r, i) => [
    String(i + 1),
    s.bold(r.id),
    r.reason ? r.reason : r.score.toFixed(3),
    r.reason === 'pinned'
      ? '(select.always in the config)'
      : r.reason === 'exact' && !r.why.length
        ? '(named)'
        : why(r) + (r.demoted ? ` [${demotionText(r.demoted)}]` : ''),
  ]);
  ctx.io.stdout.write(
    renderTable(['#', 'tool', 'score', 'why (term: fields)'], rows, {
      width: ctx.io.stdout.columns,
      align: ['r', 'l', 'r', 'l'],
      header: s.dim,
    }),
  );
  if (sel.history?.length)
    ctx.io.stdout.write(s.dim(`* from earlier in the session: ${sel.history.map((h) => `"${h}"`).join(', ')}\n`));
  if (sel.tokens) {
    const { full, selected } = sel.tokens;
    const saved = full > 0 ? ((full - selected) / full) * 100 : 0;
    ctx.io.stdout.write(
      `tokens: ${selected} selected vs ${full} for all tools (full binding): ${s.green(`${saved.toFixed(saved >= 99.5 ? 2 : 1)}% saved`)}\n`,
    );
  }
}

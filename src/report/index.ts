// `eval --report FILE.html` and `stats --report FILE.html`: build the data, render the page, write
// it atomically. The commands call these after they have printed (or before, for the path check).
import { relative } from 'node:path';
import type { StatsSource } from '../runtime/stats.js';
import { buildEvalData, type EvalDataInput } from './eval-data.js';
import { uiLang } from './numbers.js';
import { renderPage } from './page.js';
import { buildStatsData } from './stats-data.js';
import { writeReport } from './write.js';

export { checkReportPath } from './write.js';

const shown = (cwd: string, p: string) => relative(cwd, p) || '.';

/** Write the eval report for `input` to `file`. Returns its size in bytes. */
export async function writeEvalReport(
  file: string,
  input: Omit<EvalDataInput, 'registryLabel'> & {
    cwd: string;
    env: Record<string, string | undefined>;
    force: boolean;
  },
): Promise<number> {
  const data = await buildEvalData({ ...input, registryLabel: shown(input.cwd, input.project.registryDir) });
  const lang = uiLang(
    input.env,
    input.report.results.map((r) => r.query),
  );
  const html = renderPage({ title: `toolbox eval: ${data.registry}`, lang, data, script: 'eval.js' });
  writeReport(file, html, input.force);
  return Buffer.byteLength(html);
}

/** Write the stats report of a stats source (runtime/stats.ts statsSource) to `file`. Returns its size in bytes. */
export function writeStatsReport(
  file: string,
  source: StatsSource,
  opts: { project: string; cwd: string; env: Record<string, string | undefined>; force: boolean },
): number {
  const data = buildStatsData(source, { project: shown(opts.cwd, opts.project) });
  const lang = uiLang(opts.env, []);
  const html = renderPage({ title: `toolbox stats: ${data.project}`, lang, data, script: 'stats.js' });
  writeReport(file, html, opts.force);
  return Buffer.byteLength(html);
}

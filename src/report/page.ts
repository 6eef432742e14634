// The shell of an HTML report (`eval --report`, `stats --report`): one self-contained file that
// opens from disk with no network. Everything in it that came from a registry or a project's state
// (descriptions, queries, tool ids) is untrusted, so nothing untrusted is ever HTML: it travels as
// JSON inside a <script type="application/json"> that it cannot close, and the page's script puts
// it into the document as text (textContent), never as markup. A strict Content-Security-Policy
// allows only the page's own inline script and style (by hash), no connections, no images but
// data: URLs, no frames, no forms, and Trusted Types, so that even a bug in the page cannot load,
// run or send anything.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { InternalError } from '../errors.js';
import { codePath } from '../util/assets.js';

/** The UI languages of a report. */
export type ReportLang = 'en' | 'zh';

/** What marks a file as a toolbox report (so `--report` may overwrite it without --force). */
export const REPORT_MARK = '<meta name="generator" content="agent-toolbox report">';

/**
 * JSON that is safe inside a <script> element: no `<` (so no `</script>` or `<!--`), no `>` or
 * `&`, and no U+2028/U+2029 (line terminators to older JavaScript parsers), each as its \u escape,
 * which JSON.parse reads back unchanged.
 */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Text made safe for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

let assets: { uplotJs: string; uplotCss: string; uplotLicense: string } | undefined;
const app = new Map<string, string>();

/** uPlot's minified script, its stylesheet and its licence (the report carries the licence, as MIT asks). */
function uplot() {
  if (!assets) {
    const req = createRequire(import.meta.url);
    const js = req.resolve('uplot/dist/uPlot.iife.min.js');
    const read = (rel: string) => readFileSync(js.replace(/dist[\\/]uPlot\.iife\.min\.js$/, rel), 'utf8');
    assets = { uplotJs: readFileSync(js, 'utf8'), uplotCss: read('dist/uPlot.min.css'), uplotLicense: read('LICENSE') };
  }
  return assets;
}

/** One of the page's own files (src/report/app/, copied to dist/report/app/). */
function appFile(name: string): string {
  let s = app.get(name);
  if (s === undefined) app.set(name, (s = readFileSync(codePath('report', 'app', name), 'utf8')));
  return s;
}

/** What goes into one report page. */
export interface PageSpec {
  /** Plain text (escaped here). */
  title: string;
  lang: ReportLang;
  /** The report's data, read by the page's script. */
  data: unknown;
  /** The page's own script: app/common.js followed by this file of app/. */
  script: 'eval.js' | 'stats.js';
}

/** The whole HTML document of a report. */
export function renderPage(spec: PageSpec): string {
  const u = uplot();
  const css = `${u.uplotCss}\n${appFile('style.css')}`;
  // One script: uPlot, then the shared helpers, then the report's own code (an IIFE each).
  const js = `${u.uplotJs}\n;${appFile('common.js')}\n;${appFile(spec.script)}`;
  // Trusted text only, but a `</script` or `<!--` in it would still end the element early.
  if (/<\/(script|style)|<!--/i.test(js + css)) throw new InternalError('report assets contain a closing tag');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(js)}`,
    `style-src ${sha256(css)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  // The licence text must not close the comment it sits in.
  const licence = u.uplotLicense.replace(/--/g, '- -');
  return [
    '<!DOCTYPE html>',
    `<html lang="${spec.lang === 'zh' ? 'zh-CN' : 'en'}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    REPORT_MARK,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(spec.title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript>This report needs JavaScript (it runs only its own inline script and makes no connection).</noscript></div>',
    `<script type="application/json" id="report-data">${scriptJson({ lang: spec.lang, ...(spec.data as object) })}</script>`,
    `<!-- Charts: uPlot (https://github.com/leeoniya/uPlot), under the MIT licence:\n${licence}-->`,
    `<script>${js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { escapeHtml, renderPage, REPORT_MARK, scriptJson } from '../../src/report/page.js';
import { HOSTILE_DESCRIPTION } from './fixture.js';

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('report page', () => {
  it('scriptJson cannot close its <script> and reads back unchanged', () => {
    const data = { d: HOSTILE_DESCRIPTION, s: '</SCRIPT><!-- & > \u2028\u2029' };
    const out = scriptJson(data);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(data);
  });

  it('escapeHtml leaves no markup', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('is one self-contained document: a CSP with the hashes of its only script and style, no external resource', () => {
    const html = renderPage({
      title: `report <script>x</script>`,
      lang: 'en',
      data: { kind: 'eval', d: HOSTILE_DESCRIPTION },
      script: 'eval.js',
    });
    expect(html).toContain(REPORT_MARK);
    expect(html).toContain('<title>report &#60;script&#62;x&#60;/script&#62;</title>');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).not.toMatch(/unsafe|connect-src|https?:/);
    expect(csp).toContain("require-trusted-types-for 'script'");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`script-src ${hash(scripts[0]!)}`);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`style-src ${hash(styles[0]!)}`);
    // The data element holds the hostile text only in escaped form.
    const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(data).d).toBe(HOSTILE_DESCRIPTION);
    expect(html.split('<script').length - 1).toBe(2);
    const markup = html.replace(data, '');
    expect(markup).not.toMatch(/<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(/i);
    // uPlot's MIT licence travels with its code.
    expect(html).toMatch(/Copyright \(c\) \d{4} Leon Sorokin/);
  });
});

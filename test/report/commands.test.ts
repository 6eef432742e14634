import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { REPORT_MARK } from '../../src/report/page.js';
import { reportProject } from './fixture.js';

let fx: ReturnType<typeof reportProject> | undefined;
afterEach(() => fx?.cleanup());

const EVAL = ['eval', 'cases.jsonl', '--no-examples'];

describe('--report FILE.html', () => {
  it('eval --json --report: the same JSON on stdout, and the report written beside it', async () => {
    fx = reportProject();
    const plain = await cli([...EVAL, '--json'], { cwd: fx.dir });
    const r = await cli([...EVAL, '--json', '--report', 'out/eval.html'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json).toEqual(plain.json);
    expect(r.json.misses[0]).not.toHaveProperty('detail');
    const html = readFileSync(join(fx.dir, 'out', 'eval.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(REPORT_MARK);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    // Written through a temp file renamed over: nothing else is left in the folder.
    expect(readdirSync(join(fx.dir, 'out'))).toEqual(['eval.html']);
    const human = await cli([...EVAL, '--report', 'out/eval.html'], { cwd: fx.dir });
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/^report: out\/eval\.html \(\d+ KB\)$/m);
  });

  it('a folder is a clear usage error, before any work', async () => {
    fx = reportProject();
    mkdirSync(join(fx.dir, 'reports'));
    const r = await cli([...EVAL, '--json', '--report', 'reports'], { cwd: fx.dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.errorJson.error.code).toBe('report_path_invalid');
    const s = await cli(['stats', '--report', 'reports'], { cwd: fx.dir });
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/folder/);
  });

  it('overwrites an earlier report, but another existing file only with --force', async () => {
    fx = reportProject();
    const notes = fx.write('notes.html', '<p>my notes</p>\n');
    const r = await cli([...EVAL, '--json', '--report', 'notes.html'], { cwd: fx.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('report_exists');
    expect(readFileSync(notes, 'utf8')).toBe('<p>my notes</p>\n');
    expect((await cli([...EVAL, '--report', 'notes.html', '--force'], { cwd: fx.dir })).code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toContain(REPORT_MARK);
    // Now it is a report: written again without --force.
    writeFileSync(notes, readFileSync(notes, 'utf8').replace('</html>', '<!-- old --></html>'));
    expect((await cli([...EVAL, '--report', 'notes.html'], { cwd: fx.dir })).code).toBe(0);
    expect(readFileSync(notes, 'utf8')).not.toContain('<!-- old -->');
    expect((await cli(['stats', '--report', 'notes.html'], { cwd: fx.dir })).code).toBe(0);
    expect(readFileSync(notes, 'utf8')).toContain('"kind":"stats"');
  });

  it('a report that cannot be written is exit 74 (report_write_failed), with the JSON error only', async () => {
    fx = reportProject();
    fx.write('plain.txt', 'x');
    const r = await cli([...EVAL, '--json', '--report', 'plain.txt/eval.html'], { cwd: fx.dir });
    expect(r.code).toBe(74);
    expect(r.stdout).toBe('');
    expect(r.errorJson.error.code).toBe('report_write_failed');
    const s = await cli(['stats', '--report', 'plain.txt/stats.html'], { cwd: fx.dir });
    expect(s.code).toBe(74);
  });

  it('nothing is written when eval fails', async () => {
    fx = reportProject({ 'bad.jsonl': 'not json\n' });
    const r = await cli(['eval', 'bad.jsonl', '--report', 'eval.html'], { cwd: fx.dir });
    expect(r.code).toBe(2);
    expect(existsSync(join(fx.dir, 'eval.html'))).toBe(false);
  });

  it('stats --report with no calls yet writes a report that says so; --json still prints the stats', async () => {
    fx = reportProject();
    const r = await cli(['stats', '--json', '--report', 'stats.html'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ tools: [] });
    expect(readFileSync(join(fx.dir, 'stats.html'), 'utf8')).toContain('"calls":0');
  });

  it('eval --compare --report carries the changes eval --compare computed', async () => {
    fx = reportProject();
    fx.write('before.json', (await cli([...EVAL, '--json'], { cwd: fx.dir })).stdout);
    const f = join(fx.dir, 'tool_registry', 'stock_quote.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('Share price quote', 'Crypto coin'));
    const json = await cli([...EVAL, '--json', '--compare', 'before.json'], { cwd: fx.dir });
    const r = await cli([...EVAL, '--compare', 'before.json', '--report', 'c.html'], { cwd: fx.dir });
    expect(r.code).toBe(0);
    const html = readFileSync(join(fx.dir, 'c.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(data.compare.changes.map((c: { query: string; causes: string[] }) => [c.query, c.causes])).toEqual(
      json.json.compare.changes.map((c: { query: string; causes: string[] }) => [c.query, c.causes]),
    );
    expect(data.compare.changes.length).toBeGreaterThan(0);
  });
});

describe('eval with several cases files', () => {
  it('grades them together, names each miss by its file, and the report groups by file', async () => {
    fx = reportProject({
      'more/extra.jsonl': '{"query": "zebra quokka again", "relevant": ["read_file"]}\n',
    });
    const r = await cli(['eval', 'cases.jsonl', 'more/extra.jsonl', '--no-examples', '--json', '--report', 'e.html'], {
      cwd: fx.dir,
    });
    expect(r.code).toBe(0);
    expect(r.json.queries).toBe(9);
    expect(r.json.misses.find((m: { query: string }) => m.query === 'zebra quokka again')).toMatchObject({
      file: 'more/extra.jsonl',
      line: 1,
    });
    const html = readFileSync(join(fx.dir, 'e.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    const files = data.groups.filter((g: { by: string }) => g.by === 'file');
    expect(files.map((g: { name: string; queries: number }) => [g.name, g.queries])).toEqual([
      ['cases.jsonl', 8],
      ['more/extra.jsonl', 1],
    ]);
    const human = await cli(['eval', 'cases.jsonl', 'more/extra.jsonl', '--no-examples'], { cwd: fx.dir });
    expect(human.stdout).toMatch(/more\/extra\.jsonl:1 "zebra quokka again"/);
  });
});

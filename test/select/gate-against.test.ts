// evaluateAgainst (src/select/gate.ts): the cases plus the routing examples, on the project and on a
// saved result or a git ref (whose examples are counted once when both registries have them).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate, exampleCases, registryContracts, type EvalCase } from '../../src/select/evaluate.js';
import { evaluateAgainst } from '../../src/select/gate.js';
import { fixtureContract, fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

const cases: EvalCase[] = [{ query: 'send an email to my manager', relevant: ['send_email'], line: 1 }];
const withExample = () =>
  fixtureContract('stock_price').replace('tags: [finance]', 'tags: [finance]\nexamples:\n  - share price of AAPL');

describe('evaluateAgainst', () => {
  it('against a saved result: the cases plus this registry’s examples, unless examples are off', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/stock_price.yaml', withExample());
    const p = fx.project();
    const saved = await evaluate(p, cases, { examples: true });
    const file = join(fx.dir, 'before.json');
    writeFileSync(file, JSON.stringify(saved));
    const examples = exampleCases(await registryContracts(p)).length; // the fixture's and this one
    const r = await evaluateAgainst(p, cases, file);
    expect(r.report.queries).toBe(1 + examples);
    expect(r.report.results[0]).toMatchObject({ query: 'send an email to my manager', source: 'cases' });
    expect(r.report.results.map((q) => [q.query, q.source])).toContainEqual(['share price of AAPL', 'example']);
    expect(r.base).toEqual({ label: file, metrics: saved.metrics });
    expect(r.changes).toEqual([]);
    expect((await evaluateAgainst(p, cases, file, { examples: false })).report.queries).toBe(1);
  });

  it('against a git ref: both registries’ examples, each counted once, and what changed', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/stock_price.yaml', withExample());
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: fx.dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const before = exampleCases(await registryContracts(fx.project())).length;
    // a second example now, and another description
    fx.write(
      'tool_registry/stock_price.yaml',
      withExample()
        .replace(
          'Look up the latest share price of a listed company',
          'Look up the share price or a quote of a company',
        )
        .replace('  - share price of AAPL', '  - share price of AAPL\n  - quote for MSFT'),
    );
    const p = fx.project();
    const r = await evaluateAgainst(p, cases, 'HEAD');
    const queries = r.report.results.map((q) => q.query);
    expect(queries[0]).toBe('send an email to my manager');
    expect(queries).toHaveLength(1 + before + 1); // the examples at HEAD, and the one added since
    expect(new Set(queries).size).toBe(queries.length);
    expect(queries).toContain('quote for MSFT');
    expect(r.base.label).toBe('HEAD');
    // the new example: found now through the new description (graded with itself left out), not at HEAD
    expect(r.changes.map((c) => [c.query, c.verdict, c.before.top1, c.causes])).toEqual([
      ['quote for MSFT', 'better', null, ['stock_price: description, examples changed']],
    ]);
    const off = await evaluateAgainst(p, cases, 'HEAD', { examples: false });
    expect(off.report.queries).toBe(1);
    expect(off.changes).toEqual([]);
  });
});

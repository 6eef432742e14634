import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { checkRouting } from '../../src/select/routing.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { fixtureContract, fixtureIds, fixtureProject } from './fixture.js';

let fx: ReturnType<typeof fixtureProject>;
afterEach(() => fx?.cleanup());

describe('checkRouting', () => {
  it('passes when every example routes to its own tool', async () => {
    fx = fixtureProject();
    expect(await checkRouting(loadRegistry(fx.project()), { top: 3 })).toEqual([]);
  });

  it('warns at the example line and names the tool that won', async () => {
    fx = fixtureProject();
    // An example that is really about flights, on the stock tool.
    fx.write(
      'tool_registry/stock_price.yaml',
      fixtureContract('stock_price').replace(
        'tags: [finance]',
        'tags: [finance]\nexamples:\n  - share price of AAPL\n  - cheap flight fares from SFO to JFK',
      ),
    );
    const ds = await checkRouting(loadRegistry(fx.project()), { top: 1 });
    expect(ds).toHaveLength(1);
    const d = ds[0]!;
    expect(d).toMatchObject({ rule: 'routing', severity: 'warning', path: 'examples.1' });
    expect(d.file).toMatch(/stock_price\.yaml$/);
    expect(d.line).toBe(fixtureContract('stock_price').split('\n').indexOf('tags: [finance]') + 4);
    expect(d.message).toContain('search_flights');
  });

  it('reads an example as select reads a query: its typos matched to the registry words', async () => {
    fx = fixtureProject();
    // "tikcer" and "compnay" are typos of description words only; "latets" of one another tool also lacks.
    fx.write(
      'tool_registry/stock_price.yaml',
      fixtureContract('stock_price').replace(
        'tags: [finance]',
        'tags: [finance]\nexamples:\n  - latets prcie for tikcer of a compnay\n',
      ),
    );
    const registry = loadRegistry(fx.project());
    expect(await checkRouting(registry, { top: 1 })).toEqual([]);
    // The same example through select ranks the tool first too: one pipeline.
    const { openSelector } = await import('../../src/select/index.js');
    const sel = await openSelector(registry);
    expect((await sel.rank('latets prcie for tikcer of a compnay')).results[0]?.id).toBe('stock_price');
  });

  it('does not let an example route its tool by matching itself (leave-one-out)', async () => {
    fx = fixtureProject();
    // The only words of this example are in the example itself.
    fx.write('tool_registry/read_file.yaml', fixtureContract('read_file') + 'examples:\n  - zebra quokka\n');
    const ds = await checkRouting(loadRegistry(fx.project()), { top: 3 });
    expect(ds.map((d) => d.path)).toEqual(['examples.0']);
    expect(ds[0]!.message).toMatch(/does not match/);
  });
});

describe('checkRouting, the edges', () => {
  const contract = (id: string, description: string, examples: string[] = []) =>
    [
      `id: ${id}`,
      `name: ${id}`,
      `description: ${description}`,
      'schema: { type: object, properties: {} }',
      'loader: command',
      'loader_config: { argv: ["true"] }',
      ...(examples.length ? ['examples:', ...examples.map((e) => `  - ${e}`)] : []),
      '',
    ].join('\n');

  it('checks nothing in a registry of one tool, or without examples', async () => {
    fx = fixtureProject();
    for (const f of fixtureIds()) rmSync(join(fx.dir, 'tool_registry', `${f}.yaml`));
    fx.write('tool_registry/only.yaml', contract('only', 'convert currency', ['zebra quokka']));
    expect(await checkRouting(loadRegistry(fx.project()), { top: 1 })).toEqual([]);
    fx.write('tool_registry/other.yaml', contract('other', 'read a file'));
    expect((await checkRouting(loadRegistry(fx.project()), { top: 1 })).map((d) => d.path)).toEqual(['examples.0']);
    fx.write('tool_registry/only.yaml', contract('only', 'convert currency'));
    expect(await checkRouting(loadRegistry(fx.project()), { top: 1 })).toEqual([]);
  });

  it('names the rank and the winner, or no winner when nothing matches, at each example', async () => {
    fx = fixtureProject();
    for (const f of fixtureIds()) rmSync(join(fx.dir, 'tool_registry', `${f}.yaml`));
    fx.write('tool_registry/a_conv.yaml', contract('a_conv', 'convert currency amounts between currencies'));
    fx.write('tool_registry/b_conv.yaml', contract('b_conv', 'convert currency amounts between currencies today'));
    fx.write(
      'tool_registry/c_mail.yaml',
      contract('c_mail', 'send an email about currency', [
        'send an email to my boss',
        'convert currency amounts',
        'zebra quokka',
      ]),
    );
    const ds = await checkRouting(loadRegistry(fx.project()), { top: 2 });
    expect(ds.map((d) => [d.path, d.line, d.rule, d.severity])).toEqual([
      ['examples.1', 9, 'routing', 'warning'],
      ['examples.2', 10, 'routing', 'warning'],
    ]);
    // c_mail ranks #3 for the currency example, after a_conv (the shorter description) and b_conv
    expect(ds[0]!.message).toMatch(/#3, not in the top 2; 'a_conv' ranks first/);
    expect(ds[0]!.hint).toMatch(/'a_conv'/);
    // no tool matches "zebra quokka": no winner named
    expect(ds[1]!.message).toMatch(/does not match tool 'c_mail' at all$/);
    expect(ds[1]!.hint).not.toMatch(/'a_conv'|'b_conv'/);
    expect((await checkRouting(loadRegistry(fx.project()), { top: 3 })).map((d) => d.path)).toEqual(['examples.2']);
  });

  it('an exact tie goes to the tool listed first (the self-score is rounded like the index)', async () => {
    fx = fixtureProject();
    for (const f of fixtureIds()) rmSync(join(fx.dir, 'tool_registry', `${f}.yaml`));
    // Without its left-out example, the tool with the example twice is the other tool, word for word:
    // the two score exactly the same (this pair tied as 1 ulp apart before scoreDoc rounded to Float32).
    const d = 'convert currency amounts between currencies';
    fx.write('tool_registry/zq_one.yaml', contract('zq_one', d, ['convert currency']));
    fx.write('tool_registry/zq_two.yaml', contract('zq_two', d, ['convert currency', 'convert currency']));
    const ds = await checkRouting(loadRegistry(fx.project()), { top: 1 });
    // zq_one loses to zq_two (which keeps the example); zq_two ties with zq_one, listed first: #2.
    expect(ds.map((x) => [x.file.split('/').pop(), x.path, x.line])).toEqual([
      ['zq_one.yaml', 'examples.0', 8],
      ['zq_two.yaml', 'examples.0', 8],
      ['zq_two.yaml', 'examples.1', 9],
    ]);
    expect(ds[1]!.message).toMatch(/ #2, not in the top 1; 'zq_one' ranks first$/);
    expect(await checkRouting(loadRegistry(fx.project()), { top: 2 })).toEqual([]);
    // The other way round: the tool listed first wins its tie, the second one loses outright.
    fx.write('tool_registry/zq_one.yaml', contract('zq_one', d, ['convert currency', 'convert currency']));
    fx.write('tool_registry/zq_two.yaml', contract('zq_two', d, ['convert currency']));
    const swapped = await checkRouting(loadRegistry(fx.project()), { top: 1 });
    expect(swapped.map((x) => [x.file.split('/').pop(), x.path])).toEqual([['zq_two.yaml', 'examples.0']]);
  });

  it('checks the top 3 by default, names the first listed of two tools tied ahead, and the tool itself in the hint', async () => {
    fx = fixtureProject();
    for (const f of fixtureIds()) rmSync(join(fx.dir, 'tool_registry', `${f}.yaml`));
    // a_conv and b_conv say the same words: they tie for first on the currency example.
    fx.write('tool_registry/a_conv.yaml', contract('a_conv', 'convert currency amounts between currencies'));
    fx.write('tool_registry/b_conv.yaml', contract('b_conv', 'convert currency amounts between currencies'));
    fx.write('tool_registry/c_conv.yaml', contract('c_conv', 'convert currency amounts between currencies today'));
    fx.write(
      'tool_registry/d_mail.yaml',
      contract('d_mail', 'send an email about currency', ['send an email to my boss', 'convert currency amounts']),
    );
    fx.write('tool_registry/e_mail.yaml', contract('e_mail', 'send an email', ['zebra quokka']));
    const registry = loadRegistry(fx.project());
    // d_mail ranks #4 for the currency example (after a_conv, b_conv, c_conv): out of the default top 3.
    const ds = await checkRouting(registry);
    expect(ds.map((d) => [d.file.split('/').pop(), d.path])).toEqual([
      ['d_mail.yaml', 'examples.1'],
      ['e_mail.yaml', 'examples.0'],
    ]);
    expect(ds[0]!.message).toMatch(/ #4, not in the top 3; 'a_conv' ranks first$/);
    expect(ds[1]!.message).toMatch(/does not match tool 'e_mail' at all$/);
    expect(ds[1]!.hint).toMatch(/ of 'e_mail'\.$/);
    expect((await checkRouting(registry, { top: 4 })).map((d) => d.path)).toEqual(['examples.0']);
  });

  it('stops with code cancelled before any work when its signal is already aborted', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/read_file.yaml', fixtureContract('read_file') + 'examples:\n  - zebra quokka\n');
    const registry = loadRegistry(fx.project());
    const aborted = new AbortController();
    aborted.abort();
    await expect(checkRouting(registry, { top: 3, signal: aborted.signal })).rejects.toMatchObject({
      code: 'cancelled',
      exitCode: ExitCode.cancelled,
      message: 'cancelled',
    });
    // The same registry, not aborted: one warning (the example matches nothing but itself), so the stop above
    // came before the work, not after it.
    expect((await checkRouting(registry, { top: 3, signal: new AbortController().signal })).map((d) => d.path)).toEqual(
      ['examples.0'],
    );
  });

  it('stops with code cancelled once its signal is aborted during the work, checked between tools after 50 ms of work', async () => {
    fx = fixtureProject();
    for (const f of fixtureIds()) rmSync(join(fx.dir, 'tool_registry', `${f}.yaml`));
    // 500 examples, each scored against the rest of its contract: far more than 50 ms of work (about 0.2 s at
    // 400 here) before the second tool, where the check runs.
    const examples = Array.from({ length: 500 }, (_, k) => `convert currency amount number ${k}`);
    fx.write('tool_registry/a_big.yaml', contract('a_big', 'convert currency amounts', examples));
    fx.write('tool_registry/b_mail.yaml', contract('b_mail', 'send an email', ['send an email to my boss']));
    const registry = loadRegistry(fx.project());
    // Aborted once the call has started (after the check on entry): the check between tools stops it.
    const aborted = new AbortController();
    const running = checkRouting(registry, { top: 3, signal: aborted.signal });
    aborted.abort();
    await expect(running).rejects.toMatchObject({
      code: 'cancelled',
      exitCode: ExitCode.cancelled,
      message: expect.stringMatching(/\S/),
    });
    // Not aborted, or no signal at all: the check runs to the end (and yields to the event loop on the way).
    expect(await checkRouting(registry, { top: 3, signal: new AbortController().signal })).toEqual([]);
    expect(await checkRouting(registry, { top: 3 })).toEqual([]);
  });

  it('places a warning at line 1 when the contract file cannot be read any more', async () => {
    fx = fixtureProject();
    fx.write('tool_registry/read_file.yaml', fixtureContract('read_file') + 'examples:\n  - zebra quokka\n');
    const registry = loadRegistry(fx.project());
    rmSync(join(fx.dir, 'tool_registry', 'read_file.yaml'));
    const ds = await checkRouting(registry, { top: 3 });
    expect(ds.map((d) => [d.path, d.line, d.column])).toEqual([['examples.0', 1, 1]]);
  });
});

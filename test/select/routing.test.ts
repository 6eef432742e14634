import { afterEach, describe, expect, it } from 'vitest';
import { checkRouting } from '../../src/select/routing.js';
import { loadRegistry } from '../../src/registry/registry.js';
import { fixtureContract, fixtureProject } from './fixture.js';

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

  it('does not let an example route its tool by matching itself (leave-one-out)', async () => {
    fx = fixtureProject();
    // The only words of this example are in the example itself.
    fx.write('tool_registry/read_file.yaml', fixtureContract('read_file') + 'examples:\n  - zebra quokka\n');
    const ds = await checkRouting(loadRegistry(fx.project()), { top: 3 });
    expect(ds.map((d) => d.path)).toEqual(['examples.0']);
    expect(ds[0]!.message).toMatch(/does not match/);
  });
});

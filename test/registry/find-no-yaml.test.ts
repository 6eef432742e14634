// `run` finds its tool in the id index as validated JSON: no YAML parser is loaded for it.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { REFERENCE_CONTRACT, REPO, cli, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

// A fresh process, so the module cache shows what findTool itself needed (dist/, built by npm test).
const probe = (dir: string) =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       const { resolveProject } = await import(${JSON.stringify(`${REPO}/dist/config.js`)});
       const { findTool } = await import(${JSON.stringify(`${REPO}/dist/registry/registry.js`)});
       const e = findTool(resolveProject({ cwd: ${JSON.stringify(dir)} }), 'query_weather');
       const req = createRequire(import.meta.url);
       const yaml = Object.keys(req.cache).some((k) => k.includes('/node_modules/yaml/'));
       console.log(JSON.stringify({ id: e.contract.id, city: e.contract.schema.properties.city.type, updated: e.contract.description.includes('已更新'), yaml }));`,
    ],
    { encoding: 'utf8' },
  );

describe('findTool', () => {
  it('answers from the id index without loading yaml, and re-reads a changed file', async () => {
    const p = tempProject({ 'tool_registry/w.yaml': REFERENCE_CONTRACT });
    cleanup = p.cleanup;
    expect((await cli(['list', '--json'], { cwd: p.dir })).code).toBe(0); // builds the cache
    expect(JSON.parse(probe(p.dir))).toEqual({ id: 'query_weather', city: 'string', updated: false, yaml: false });
    p.write('tool_registry/w.yaml', REFERENCE_CONTRACT.replace('未来短期预报。', '未来短期预报（已更新）。'));
    // Changed since it was indexed: parsed again, and the answer is the new file's. The contract is in the
    // fast parser's subset, so even the re-read loads no yaml.
    expect(JSON.parse(probe(p.dir))).toEqual({ id: 'query_weather', city: 'string', updated: true, yaml: false });
    // Outside the subset (an anchor), yaml parses it.
    p.write(
      'tool_registry/w.yaml',
      REFERENCE_CONTRACT.replace('未来短期预报。', '未来短期预报（已更新）。').replace(
        'id: query_weather',
        'id: &i query_weather',
      ),
    );
    expect(JSON.parse(probe(p.dir))).toMatchObject({ id: 'query_weather', updated: true, yaml: true });
  });
});

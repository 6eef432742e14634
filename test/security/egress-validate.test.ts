// Issue 33 item 3: `sandbox.network` names what a tool may reach. A contract that lists the host's
// or the network's own services is an error at the entry's line:column (only the user's grant opens
// those), and at run time the proxy still refuses them; `network: true` on a contract that names one
// service is a warning; a host list validates and runs.
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const tool = (id: string, network: string, description?: string) =>
  contract(id, 'python_function', '{ module: t.m, function: f }', `sandbox:\n  network: ${network}\n`).replace(
    /^description: .*$/m,
    `description: ${description ?? 'A tool used by the security tests of toolbox; it must stay contained.'}`,
  );
const p = project({
  't/__init__.py': '',
  't/m.py': 'def f(x=None):\n    return 1\n',
  'tool_registry/private.yaml': tool(
    'private',
    '["127.0.0.1:6379", localhost, "169.254.169.254", "[::ffff:127.0.0.1]:80", "10.0.0.5", api.example.com, "0177.0.0.1"]',
  ),
  'tool_registry/broad.yaml': tool('broad', 'true', 'Get the forecast for a city from api.open-meteo.com, in Celsius.'),
  'tool_registry/listed.yaml': tool('listed', '[api.open-meteo.com, "*.github.com", "example.org:8443"]'),
});
afterAll(() => p.cleanup());

describe('validate: sandbox.network', () => {
  it(`a contract listing loopback, private or link-local addresses is an error at each entry (${expected('egress-contract-private', 'bwrap')})`, async () => {
    const r = await cli(['validate', '--no-routing', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    const ds = (
      r.json.diagnostics as {
        rule: string;
        file: string;
        line: number;
        column: number;
        severity: string;
        hint: string;
      }[]
    ).filter((d) => d.rule.startsWith('sandbox-network'));
    const at = ds.map((d) => `${d.file.split('/').pop()}:${d.line}:${d.column} ${d.rule} ${d.severity}`).sort();
    expect(at).toEqual([
      'broad.yaml:9:3 sandbox-network-broad warning',
      'private.yaml:9:115 sandbox-network-private error',
      'private.yaml:9:13 sandbox-network-private error',
      'private.yaml:9:31 sandbox-network-private error',
      'private.yaml:9:42 sandbox-network-private error',
      'private.yaml:9:61 sandbox-network-private error',
      'private.yaml:9:86 sandbox-network-private error',
    ]);
    expect(ds.find((d) => d.rule === 'sandbox-network-private')!.hint).toContain('grants.yaml');
    expect(ds.find((d) => d.rule === 'sandbox-network-broad')!.hint).toContain('network: [api.open-meteo.com]');
  });

  it('a listed contract runs (the list is its policy)', async () => {
    const r = await cli(['run', 'listed', '--json'], { cwd: p.dir, env: { TOOLBOX_SANDBOX: 'bwrap' } });
    expect(r.code, r.stderr).toBe(0);
  });
});

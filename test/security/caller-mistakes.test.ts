// Issue 34 item 4: a caller's mistake never counts against a tool. An argument the schema does not
// declare is refused before the call (exit 2, `invalid_arguments` naming them), and a TypeError about the call's
// own signature (Python's unexpected/missing keyword, a Node parameter list that cannot bind) is
// the caller's (exit 2, `invalid_arguments`): five such calls from one client must not open the
// breaker that every client and replica shares. A TypeError raised deeper inside still counts.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, testConfigHome } from '../helpers.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { Breaker, breakerSettings } from '../../src/runtime/breaker.js';
import { resolveProject } from '../../src/config.js';
import type { ToolboxError } from '../../src/errors.js';
import { errCode, stdioClient } from '../serve/fixtures.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

testConfigHome();
const shipped = readFileSync(join(REPO, 'tool_registry', 'query_weather.yaml'), 'utf8');
const open = 'schema: { type: object, properties: { x: { type: string } }, additionalProperties: true }';
const openContract = (id: string, loader: string, cfg: string) =>
  contract(id, loader, cfg).replace(/^schema: .*$/m, open);

const p = project({
  'toolbox.config.yaml': 'registry: tool_registry\nruntime: { breaker: { failures: 3, window: 60, cooldown: 60 } }\n',
  'tool_registry/query_weather.yaml': shipped,
  // The shipped tool, but declaring that it takes more than `city`: the extra keyword then reaches
  // get_weather_by_city(city) and Python refuses it at the call.
  'tool_registry/weather_open.yaml': shipped
    .replace('id: query_weather', 'id: weather_open')
    .replace('  required: [city]', '  required: [city]\n  additionalProperties: true'),
  'my_tools/__init__.py': '',
  'my_tools/sig.py': `import functools

def exact(x):
    return x

def wrapped(f):
    @functools.wraps(f)
    def inner(*a, **kw):
        return f(*a, **kw)
    return inner

@wrapped
def decorated(x):
    return x

def deep(x, **extra):
    return _helper(x, colour="red")

def _helper(x):
    return x
`,
  'my_tools/sig.mjs': `export function pick({ x, opts: { n } }) { return x + n; }
export function deep(args) { return helper(args.x); }
function helper(x) { return x.missing.deeper; }
`,
  'tool_registry/exact.yaml': openContract('exact', 'python_function', '{ module: my_tools.sig, function: exact }'),
  'tool_registry/decorated.yaml': openContract(
    'decorated',
    'python_function',
    '{ module: my_tools.sig, function: decorated }',
  ),
  'tool_registry/deep.yaml': openContract('deep', 'python_function', '{ module: my_tools.sig, function: deep }'),
  'tool_registry/pick.yaml': openContract('pick', 'node_module', '{ module: my_tools/sig.mjs, function: pick }'),
  'tool_registry/node_deep.yaml': openContract(
    'node_deep',
    'node_module',
    '{ module: my_tools/sig.mjs, function: deep }',
  ),
});
copyFileSync(join(REPO, 'my_tools', 'weather.py'), join(p.dir, 'my_tools', 'weather.py'));
const project_ = resolveProject({ cwd: p.dir });
const rt = new Runtime(project_, { longRunning: true, via: 'serve' });
const breaker = () => new Breaker(project_.stateDir, breakerSettings(project_.config));
afterAll(async () => {
  await rt.close();
  p.cleanup();
});

const call = (id: string, args: Record<string, unknown>) =>
  rt.invoke({ id, args, session: 'careless' }).then(
    (r) => ({ code: 0, error: undefined as string | undefined, result: r.result }),
    (e: ToolboxError) => ({ code: e.exitCode, error: e.code, details: e.details }),
  );

describe('issue 34 item 4: caller mistakes never count against a tool', () => {
  it('five calls of the shipped query_weather with {"zzz": 1} are refused before the call, breaker closed', async () => {
    expect(expected('breaker-undeclared-argument', 'bwrap')).toBe('blocked');
    for (let i = 0; i < 5; i++) {
      const r = await call('query_weather', { city: '北京', zzz: 1 });
      expect(r).toMatchObject({ code: 2, error: 'invalid_arguments', details: { unknown: ['zzz'] } });
    }
    expect(breaker().status('query_weather')).toEqual({ state: 'closed', recentFailures: 0 });
  });

  it('through serve with the SDK client: isError invalid_arguments, breaker still closed', async () => {
    const { client } = await stdioClient(join(p.dir, 'tool_registry'), [], p.dir);
    try {
      for (let i = 0; i < 5; i++) {
        const r = await client.callTool({ name: 'query_weather', arguments: { zzz: 1 } });
        expect(r.isError).toBe(true);
        expect(errCode(r)).toBe('invalid_arguments');
        expect(JSON.stringify(r.content)).toContain("unknown argument 'zzz'");
      }
    } finally {
      await client.close();
    }
    expect(breaker().status('query_weather')).toEqual({ state: 'closed', recentFailures: 0 });
  });

  it("Python's TypeError about the call's signature is the caller's (exit 2), even through a decorator", async () => {
    expect(expected('breaker-signature-typeerror', 'bwrap')).toBe('blocked');
    for (let i = 0; i < 5; i++) {
      expect(await call('weather_open', { city: '北京', zzz: 1 })).toMatchObject({
        code: 2,
        error: 'invalid_arguments',
      });
      expect(await call('exact', { x: 'a', y: 'b' })).toMatchObject({ code: 2, error: 'invalid_arguments' });
      expect(await call('exact', {})).toMatchObject({ code: 2, error: 'invalid_arguments' }); // missing keyword
      expect(await call('decorated', { x: 'a', y: 'b' })).toMatchObject({ code: 2, error: 'invalid_arguments' });
    }
    for (const id of ['weather_open', 'exact', 'decorated'])
      expect(breaker().status(id), id).toEqual({ state: 'closed', recentFailures: 0 });
    expect(await call('exact', { x: 'fine' })).toMatchObject({ code: 0, result: 'fine' });
    expect(await call('decorated', { x: 'fine' })).toMatchObject({ code: 0, result: 'fine' });
  });

  it('a Node parameter list that cannot bind the arguments is the caller’s (exit 2)', async () => {
    for (let i = 0; i < 4; i++)
      expect(await call('pick', { x: 'a' })).toMatchObject({ code: 2, error: 'invalid_arguments' });
    expect(breaker().status('pick')).toEqual({ state: 'closed', recentFailures: 0 });
    expect(await call('pick', { x: 'a', opts: { n: 1 } })).toMatchObject({ code: 0, result: 'a1' });
  });

  it('a TypeError raised deeper inside the tool still counts, and opens the breaker', async () => {
    for (const id of ['deep', 'node_deep']) {
      for (let i = 0; i < 3; i++)
        expect(await call(id, { x: 'a' }), id).toMatchObject({ code: 4, error: 'tool_failed' });
      expect(await call(id, { x: 'a' }), id).toMatchObject({ code: 4, error: 'circuit_open' });
    }
  });
});

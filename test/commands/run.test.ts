import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { contract, pyTool, runProject, shellTool } from '../fixtures/tools/r_project.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const project = (contracts: Record<string, string>, config?: string) => {
  const p = runProject(contracts, config);
  cleanup = p.cleanup;
  return p;
};

const ECHO_SCHEMA = `schema:
  type: object
  properties:
    name: { type: string, description: Who to greet }
    count: { type: integer, minimum: 1, default: 1 }
    ratio: { type: number }
    loud: { type: boolean }
    unit: { type: string, enum: [c, f] }
    tags: { type: array, items: { type: string } }
    ports: { type: array, items: { type: integer } }
    address:
      type: object
      properties:
        city: { type: string }
        zip: { type: integer }
  required: [name]
`;

describe('toolbox run: arguments end to end (python_function, types as Python sees them)', () => {
  const tools = { echo_args: pyTool('echo_args', 'echo_args', ECHO_SCHEMA) };

  it.each([
    ['string', ['--name', '北京'], { name: '北京' }, { name: 'str' }],
    ['integer', ['--name', 'a', '--count', '12'], { count: 12 }, { count: 'int' }],
    ['number', ['--name', 'a', '--ratio', '2.5'], { ratio: 2.5 }, { ratio: 'float' }],
    ['boolean flag', ['--name', 'a', '--loud'], { loud: true }, { loud: 'bool' }],
    ['--no-flag', ['--name', 'a', '--no-loud'], { loud: false }, { loud: 'bool' }],
    ['enum', ['--name', 'a', '--unit', 'f'], { unit: 'f' }, {}],
    ['repeated array', ['--name', 'a', '--ports', '80', '--ports', '443'], { ports: [80, 443] }, { ports: 'list' }],
    [
      'nested object',
      ['--name', 'a', '--address.city', 'Lyon', '--address.zip', '69001'],
      { address: { city: 'Lyon', zip: 69001 } },
      { address: 'dict' },
    ],
  ])('%s', async (_n, flags, args, types) => {
    const p = project(tools);
    const r = await cli(['run', 'echo_args', ...flags, '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.result.args).toMatchObject(args);
    expect(r.json.result.types).toMatchObject(types);
  });

  it('takes a JSON object on stdin, --args and --args-file (flags win over the document)', async () => {
    const p = project(tools);
    const a = await cli(['run', 'echo_args', '--json'], { cwd: p.dir, stdin: '{"name": "from-stdin", "count": 3}' });
    expect(a.code, a.stderr).toBe(0);
    expect(a.json.result.args).toEqual({ name: 'from-stdin', count: 3 });
    const b = await cli(['run', 'echo_args', '--args', '{"name":"x","count":2}', '--count', '5', '--json'], {
      cwd: p.dir,
    });
    expect(b.json.result.args).toEqual({ name: 'x', count: 5 });
    p.write('args.json', '{"name": "file", "tags": ["t"]}');
    const c = await cli(['run', 'echo_args', '--args-file', 'args.json', '--json'], { cwd: p.dir });
    expect(c.json.result.args).toEqual({ name: 'file', tags: ['t'] });
  });

  it('rejects bad arguments with exit 2, naming the flag, what was expected and what was given', async () => {
    const p = project(tools);
    const cases: [string[], string, RegExp][] = [
      [['--count', '3'], 'invalid_arguments', /--name/],
      [['--name', 'a', '--count', '12abc'], 'invalid_argument', /--count.*integer.*12abc/],
      [['--name', 'a', '--count', '0'], 'invalid_arguments', /--count.*>= 1.*0/],
      [['--name', 'a', '--unit', 'k'], 'invalid_argument', /c, f/],
      [['--nme', 'a'], 'unknown_argument', /Did you mean --name/],
      [['--args', '{"name": 5}'], 'invalid_arguments', /--name.*string.*5/],
      [['--args', '[1]'], 'invalid_args_json', /object/],
    ];
    for (const [flags, code, msg] of cases) {
      const r = await cli(['run', 'echo_args', ...flags, '--json'], { cwd: p.dir });
      expect(r.code, JSON.stringify(flags)).toBe(2);
      expect(r.errorJson.error.code).toBe(code);
      expect(r.errorJson.error.message).toMatch(msg);
    }
  });

  it('an unknown tool is exit 2 with the closest ids', async () => {
    const p = project(tools);
    const r = await cli(['run', 'echo_arg', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('unknown_tool');
    expect(r.errorJson.error.details.suggestions).toContain('echo_args');
  });

  it('--help prints the usage generated from the schema', async () => {
    const p = project(tools);
    const r = await cli(['run', 'echo_args', '--help'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: toolbox run echo_args --name <string>/);
    expect(r.stdout).toMatch(/--name <string>\s+Who to greet \(required\)/);
    expect(r.stdout).toMatch(/--count <integer>.*default: 1/);
    expect(r.stdout).toMatch(/--unit <c\|f>/);
    expect(r.stdout).toMatch(/--address\.city <string>/);
    expect(r.stdout).toMatch(/--ports <integer\[\]>/);
  });
});

describe('toolbox run: output', () => {
  const tools = {
    weather: pyTool(
      'weather',
      'weather_like',
      'schema:\n  type: object\n  properties:\n    city: { type: string }\n    unit: { type: string, enum: [c, f] }\n  required: [city]\n',
      'format: "{{city}}: {{temp}}°{{unit}}"\n',
    ),
    weather_plain: pyTool(
      'weather_plain',
      'weather_like',
      'schema:\n  type: object\n  properties:\n    city: { type: string }\n',
      'output_schema:\n  type: object\n  properties:\n    temp: { type: string }\n',
    ),
    boom: pyTool('boom', 'boom', 'schema:\n  type: object\n  properties:\n    message: { type: string }\n'),
  };

  it('formats with the contract template; the stray print does not corrupt the result', async () => {
    const p = project(tools);
    const r = await cli(['run', 'weather', '--city', '北京'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('北京: 21°c\n');
  });

  it('--json has the documented shape', async () => {
    const p = project(tools);
    const r = await cli(['run', 'weather', '--city', 'Paris', '--unit', 'f', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      tool: 'weather',
      ok: true,
      result: { city: 'Paris', temp: 70 },
      text: 'Paris: 70°f',
      cacheHit: false,
    });
    for (const k of ['durationMs', 'loadMs', 'runMs']) expect(typeof r.json[k]).toBe('number');
    expect(['bwrap', 'unshare', 'none']).toContain(r.json.sandbox);
    expect(Array.isArray(r.json.warnings)).toBe(true);
  });

  it('renders readably without a template and warns when output_schema does not match', async () => {
    const p = project(tools);
    const r = await cli(['run', 'weather_plain', '--city', 'Oslo'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^city: +Oslo\ntemp: +21\n/);
    expect(r.stdout).toMatch(/days:\n {2}- d: mon\n {4}t: 20/);
    expect(r.stderr).toMatch(/warning: .*output_schema/);
  });

  it('a tool exception is exit 4 with its message; the traceback only under --verbose', async () => {
    const p = project(tools);
    const r = await cli(['run', 'boom', '--message', 'disk on fire'], { cwd: p.dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/disk on fire/);
    expect(r.stderr).not.toMatch(/Traceback/);
    const j = await cli(['run', 'boom', '--json'], { cwd: p.dir });
    expect(j.errorJson.error.code).toBe('tool_failed');
    expect(j.errorJson.error.details?.traceback).toBeUndefined();
    const v = await cli(['run', 'boom', '--message', 'disk on fire', '--verbose'], { cwd: p.dir });
    expect(v.code).toBe(4);
    expect(v.stderr).toMatch(/Traceback|raise ValueError/);
  });

  it('--verbose names the sandbox tier and the timings', async () => {
    const p = project(tools);
    const r = await cli(['run', 'weather', '--city', 'x', '--verbose'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/sandbox: (bwrap|unshare|none) +load [\d.]+ ms +run [\d.]+ ms +total [\d.]+ ms/);
  });
});

describe('toolbox run: limits and cancellation', () => {
  const tools = {
    sleepy: shellTool('sleepy', 'r_sleep.sh', [], undefined, 'timeout: 30\n'),
    flood: shellTool('flood', 'r_flood.sh', [], undefined, 'sandbox:\n  output: 64K\n'),
  };

  it('--timeout stops the tool: exit 5 tool_timeout naming how to raise it', async () => {
    const p = project(tools);
    const r = await cli(['run', 'sleepy', '--timeout', '300ms', '--json'], { cwd: p.dir });
    expect(r.code).toBe(5);
    expect(r.errorJson.error.code).toBe('tool_timeout');
    expect(r.errorJson.error.hint).toMatch(/--timeout/);
  });

  it('an output flood is exit 5 tool_limit naming the output limit', async () => {
    const p = project(tools);
    const r = await cli(['run', 'flood', '--json'], { cwd: p.dir });
    expect(r.code).toBe(5);
    expect(r.errorJson.error.code).toBe('tool_limit');
    expect(r.errorJson.error.message).toMatch(/output/);
    expect(r.errorJson.error.details.limit).toBe('output');
  });

  it('a bad --timeout value is a usage error', async () => {
    const p = project(tools);
    const r = await cli(['run', 'sleepy', '--timeout', 'soon', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('invalid_duration');
  });
});

describe('toolbox run: permissions are checked before anything loads', () => {
  // The program does not exist: loading the tool fails with exit 6 (command_not_found).
  // Getting exit 7 instead proves the refusal came before the loader was touched.
  const tools = {
    guarded: contract(
      'guarded',
      'loader: command\nloader_config:\n  argv: [rtools/no-such-program]\npermissions: { roles: [admin] }\n',
    ),
  };
  const config = 'permissions:\n  users:\n    alice: [admin]\n    bob: [viewer]\n';

  it('refuses with exit 7 for a caller without the role, without loading the tool', async () => {
    const p = project(tools, config);
    for (const who of [[], ['--user', 'bob'], ['--role', 'viewer']]) {
      const r = await cli(['run', 'guarded', ...who, '--json'], { cwd: p.dir });
      expect(r.code, who.join(' ')).toBe(7);
      expect(r.errorJson.error.code).toBe('permission_denied');
    }
    const allowed = await cli(['run', 'guarded', '--user', 'alice', '--json'], { cwd: p.dir });
    expect(allowed.code).toBe(6);
    const byRole = await cli(['run', 'guarded', '--role', 'admin', '--json'], { cwd: p.dir });
    expect(byRole.code).toBe(6);
  });
});

describe('toolbox run: circuit breaker across separate invocations', () => {
  const tools = {
    flaky: shellTool(
      'flaky',
      'r_flaky.sh',
      ['{{mode}}'],
      'schema:\n  type: object\n  properties:\n    mode: { type: string }\n  required: [mode]\n',
    ),
  };
  const config = 'runtime:\n  breaker: { failures: 2, window: 60, cooldown: 2 }\n';

  it('opens after N failures, says when it reopens, lets a trial through after the cool-down', async () => {
    const p = project(tools, config);
    const run = (mode: string) => cli(['run', 'flaky', '--mode', mode, '--json'], { cwd: p.dir });
    // Usage errors do not count.
    for (let i = 0; i < 3; i++) expect((await cli(['run', 'flaky', '--json'], { cwd: p.dir })).code).toBe(2);
    expect((await run('fail')).errorJson.error.code).toBe('tool_failed');
    expect((await run('fail')).errorJson.error.code).toBe('tool_failed');
    const open = await run('ok');
    expect(open.code).toBe(4);
    expect(open.errorJson.error.code).toBe('circuit_open');
    expect(open.errorJson.error.message).toMatch(/reopens at \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+ s\)/);
    expect(
      JSON.parse(readFileSync(join(p.dir, '.toolbox', 'breaker.json'), 'utf8')).tools.flaky.openUntil,
    ).toBeGreaterThan(0);
    const st = await cli(['stats', '--json'], { cwd: p.dir });
    expect(st.json.tools.find((t: { tool: string }) => t.tool === 'flaky').breaker).toBe('open');

    await new Promise((r) => setTimeout(r, 2100));
    // Half-open: the trial call fails, so the circuit opens again at once.
    expect((await run('fail')).errorJson.error.code).toBe('tool_failed');
    expect((await run('ok')).errorJson.error.code).toBe('circuit_open');
    await new Promise((r) => setTimeout(r, 2100));
    // The trial succeeds: closed again; one more failure does not open it.
    const ok = await run('ok');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.result).toEqual({ ok: true, mode: 'ok' });
    expect((await run('fail')).errorJson.error.code).toBe('tool_failed');
    expect((await run('ok')).code).toBe(0);
  });
});

describe('toolbox run: call log and session', () => {
  const tools = {
    echo: shellTool(
      'echo',
      'r_echo.sh',
      ['{{a}}', '{{b}}'],
      'schema:\n  type: object\n  properties:\n    a: { type: string }\n    b: { type: string }\n',
    ),
  };

  it('logs one line per call without argument values; records the session', async () => {
    const p = project(tools);
    const secret = 'hunter2-very-secret-value';
    const r = await cli(['run', 'echo', '--a', secret, '--b', 'x', '--session', 's1', '--json'], { cwd: p.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.result).toEqual({ a: secret, b: 'x' });
    await cli(['run', 'echo', '--c', secret], { cwd: p.dir });
    const log = readFileSync(join(p.dir, '.toolbox', 'calls.jsonl'), 'utf8');
    expect(log).not.toContain(secret);
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1); // an unknown flag is refused before the pipeline starts
    expect(lines[0]).toMatchObject({
      tool: 'echo',
      ok: true,
      outcome: 'ok',
      exitCode: 0,
      cacheHit: false,
      session: 's1',
      via: 'cli',
    });
    for (const k of ['ts', 'loadMs', 'runMs', 'durationMs', 'sandbox']) expect(lines[0]).toHaveProperty(k);
    const session = JSON.parse(readFileSync(join(p.dir, '.toolbox', 'sessions', 's1.json'), 'utf8'));
    expect(session.events.at(-1)).toMatchObject({ kind: 'run', tools: ['echo'] });
  });

  it('a malformed session id is a usage error and nothing runs', async () => {
    const p = project(tools);
    const r = await cli(['run', 'echo', '--session', '../x', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(existsSync(join(p.dir, '.toolbox', 'sessions'))).toBe(false);
  });
});

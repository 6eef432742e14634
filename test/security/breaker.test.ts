// Item 5: caller errors are not tool failures. One client's bad input must never open the breaker
// (shared by every client of serve and, through .toolbox/breaker.json, the CLI).
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { resolveProject } from '../../src/config.js';
import type { ToolboxError } from '../../src/errors.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const p = project({
  'toolbox.config.yaml': 'registry: tool_registry\nruntime: { breaker: { failures: 3, window: 60, cooldown: 60 } }\n',
  'my_tools/__init__.py': '',
  'my_tools/calc.py': `def div(x):
    a, b = x.split("/")
    if int(b) == 0:
        raise ValueError("division by zero")
    return int(a) // int(b)

def crash(x):
    raise RuntimeError("a bug in the tool")
`,
  'tool_registry/div.yaml': contract('div', 'python_function', '{ module: my_tools.calc, function: div }'),
  'tool_registry/crash.yaml': contract('crash', 'python_function', '{ module: my_tools.calc, function: crash }'),
  'tool_registry/echo.yaml': contract('echo', 'command', '{ argv: [/bin/echo, "{{x}}"] }'),
});
const rt = new Runtime(resolveProject({ cwd: p.dir }), { longRunning: true, via: 'serve' });
afterAll(async () => {
  await rt.close();
  p.cleanup();
});

const call = (id: string, args: unknown, session: string) =>
  rt.invoke({ id, args: args as Record<string, unknown>, session }).then(
    (r) => ({ code: 0, result: r.result }),
    (e: ToolboxError) => ({ code: e.exitCode, error: e.code }),
  );
let deep: unknown = '1/1';
for (let i = 0; i < 20_000; i++) deep = [deep];

describe('item 5: only the tool’s own faults count toward its breaker', () => {
  it('arguments the tool rejects (ValueError) never open it', async () => {
    expect(expected('breaker-rejected-arguments', 'bwrap')).toBe('blocked');
    for (let i = 0; i < 6; i++) expect(await call('div', { x: '1/0' }, 'attacker')).toMatchObject({ code: 4 });
    expect(await call('div', { x: '6/3' }, 'victim')).toEqual({ code: 0, result: 2 });
    const viaCli = await cli(['run', 'div', '--x', '8/2', '--json'], { cwd: p.dir });
    expect([viaCli.code, viaCli.json?.result]).toEqual([0, 4]);
  });

  it('deeply nested arguments are a usage error (exit 2) and never open it', async () => {
    expect(expected('breaker-deep-nesting', 'bwrap')).toBe('blocked');
    for (let i = 0; i < 6; i++)
      expect(await call('div', { x: deep }, 'attacker')).toEqual({ code: 2, error: 'arguments_too_deep' });
    expect(await call('div', { x: '9/3' }, 'victim')).toEqual({ code: 0, result: 3 });
  });

  it('NUL bytes for a command tool are a usage error (exit 2) and never open it', async () => {
    expect(expected('breaker-nul-byte', 'bwrap')).toBe('blocked');
    for (let i = 0; i < 6; i++)
      expect(await call('echo', { x: 'a\0b' }, 'attacker')).toEqual({ code: 2, error: 'argument_nul_byte' });
    expect(await call('echo', { x: 'hello' }, 'victim')).toEqual({ code: 0, result: 'hello' });
  });

  it('the tool’s own crashes still open it (the breaker works)', async () => {
    for (let i = 0; i < 3; i++) expect(await call('crash', { x: '' }, 's')).toEqual({ code: 4, error: 'tool_failed' });
    expect(await call('crash', { x: '' }, 's')).toEqual({ code: 4, error: 'circuit_open' });
  });
});

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../helpers.js';
import { ALL_TYPES, callCtx, loadTool, rejection } from './helpers.js';

const py = (fn: string, module = 'l_py_tools') => loadTool('python_function', { module, function: fn });

describe('python_function loader (one process per call)', () => {
  it('round-trips every argument type as keyword arguments', async () => {
    const out = await (await py('echo')).call(ALL_TYPES, callCtx());
    expect(out.result).toEqual(ALL_TYPES);
    expect(['bwrap', 'unshare', 'none']).toContain(out.tier);
  });

  it("the tool's prints (stdout, stderr, subprocesses) go to logs, not into the result", async () => {
    const out = await (await py('noisy')).call({ x: 'value' }, callCtx());
    expect(out.result).toEqual({ x: 'value' });
    expect(out.logs).toContain('print to stdout value');
    expect(out.logs).toContain('raw stdout write');
    expect(out.logs).toContain('from a subprocess');
  });

  it('an exception is a tool failure with the Python traceback', async () => {
    const err = await rejection((await py('fail')).call({ msg: '坏了 "bad"' }, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('ValueError: 坏了 "bad"');
    expect(err.traceback).toMatch(/l_py_tools\.py", line \d+, in _inner/);
    expect(err.traceback).not.toContain('python_runner.py');
  });

  it('awaits async functions', async () => {
    expect((await (await py('async_echo')).call({ x: [1, 2] }, callCtx())).result).toEqual({ async: [1, 2] });
  });

  it('a module that fails to import is a tool failure with the traceback', async () => {
    const err = await rejection((await py('f', 'l_py_broken')).call({}, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('refuses to import');
    expect(err.traceback).toContain('l_py_broken.py');
  });

  it('a missing dependency of the module names the missing package', async () => {
    const err = await rejection((await py('f', 'l_py_missing_dep')).call({}, callCtx()));
    // issue 38: a missing dependency (exit 6) with what to declare and how to install it, no longer a bare tool failure
    expect(err).toMatchObject({ name: 'ToolboxError', code: 'missing_dependency', exitCode: 6 });
    expect(err.message).toContain('l_surely_not_installed_pkg');
    expect(err.hint).toContain('requires: { python: [l_surely_not_installed_pkg] }');
  });

  it("a missing module or function is the contract's fault (exit 3), with suggestions", async () => {
    // Only the tool's own package is visible in the sandbox: a missing one is reported at load time.
    const mod = await rejection(py('echo', 'l_py_tool').then((t) => t.call({}, callCtx())));
    expect(mod).toMatchObject({ code: 'tool_module_not_found', exitCode: 3 });
    expect(mod.message).toContain("'l_py_tools'");
    const fn = await rejection((await py('ecoh')).call({}, callCtx()));
    expect(fn).toMatchObject({ code: 'tool_function_not_found', exitCode: 3 });
    expect(fn.message).toContain("did you mean 'echo'");
    const nc = await rejection((await py('not_callable')).call({}, callCtx()));
    expect(nc.code).toBe('tool_function_not_found');
  });

  it('a result JSON cannot hold is a clear failure; dates, decimals and sets have documented readings', async () => {
    const err = await rejection((await py('bad_result')).call({}, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toMatch(/cannot be sent as JSON.*object/);
    const nan = await rejection((await py('not_a_number')).call({}, callCtx()));
    expect(nan.message).toContain('cannot be sent as JSON');
    expect((await (await py('special')).call({}, callCtx())).result).toEqual({
      date: '2024-05-06',
      dec: '1.50',
      set: [1, 2, 3],
    });
  });

  it('the tool sees no stdin (the runner consumed its request)', async () => {
    expect((await (await py('grab_stdin')).call({}, callCtx())).result).toBe('');
  });

  it('a print loop hits the output limit', async () => {
    const err = await rejection((await py('flood')).call({}, callCtx({ sandbox: { output: '256K' } })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'output' });
  });

  it('a call past its timeout is a limit hit', async () => {
    const err = await rejection((await py('sleep')).call({ seconds: 10 }, callCtx({ timeout: '500ms' })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
  });

  it('an unknown interpreter is reported before anything runs', async () => {
    const err = await rejection(
      loadTool('python_function', { module: 'l_py_tools', function: 'echo', python: 'l-no-such-python' }),
    );
    expect(err.name).toBe('ToolboxError');
    expect(err.message).toContain('l-no-such-python');
  });
});

describe('python_function loader: loader_config.python', () => {
  let proj: ReturnType<typeof tempProject>;
  beforeAll(() => {
    proj = tempProject({
      'l_where.py': 'import sys\n\ndef where():\n    return {"prefix": sys.prefix, "exe": sys.executable}\n',
    });
    execFileSync('python3', ['-m', 'venv', '--without-pip', `${proj.dir}/.venv`]);
  });
  afterAll(() => proj.cleanup());

  it('a venv folder relative to the project root runs its interpreter (site-packages visible)', async () => {
    const tool = await loadTool(
      'python_function',
      { module: 'l_where', function: 'where', python: '.venv' },
      { root: proj.dir },
    );
    const got = (await tool.call({}, callCtx())).result as { prefix: string };
    expect(got.prefix).toBe(`${proj.dir}/.venv`);
  });

  it('an absolute interpreter path is used as given', async () => {
    const tool = await loadTool(
      'python_function',
      { module: 'l_where', function: 'where', python: '/usr/bin/python3' },
      { root: proj.dir },
    );
    const got = (await tool.call({}, callCtx())).result as { exe: string };
    expect(got.exe).toMatch(/^\/usr\/bin\/python3/);
  });
});

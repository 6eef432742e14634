import { describe, expect, it } from 'vitest';
import { ALL_TYPES, callCtx, loadTool, rejection } from './helpers.js';

const node = (fn: string | undefined, module = 'l_node_tools.mjs') =>
  loadTool('node_module', fn === undefined ? { module } : { module, function: fn });

describe('node_module loader (one process per call)', () => {
  it('calls the default export with ONE argument, the args object; every type round-trips', async () => {
    const out = await (await node(undefined)).call(ALL_TYPES, callCtx());
    expect(out.result).toEqual(ALL_TYPES);
  });

  it('awaits async exports', async () => {
    expect((await (await node('echoAsync')).call({ a: 1 }, callCtx())).result).toEqual({ async: { a: 1 } });
  });

  it('console.log, stdout writes and subprocess output go to logs, not into the result', async () => {
    const out = await (await node('noisy')).call({ x: 'v' }, callCtx());
    expect(out.result).toEqual({ x: 'v' });
    expect(out.logs).toContain('console.log noise v');
    expect(out.logs).toContain('raw stdout write');
    expect(out.logs).toContain('from a subprocess');
  });

  it('a thrown error is a tool failure with its stack', async () => {
    const err = await rejection((await node('fail')).call({ msg: '坏' }, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('TypeError: bad: 坏');
    expect(err.traceback).toContain('l_node_tools.mjs');
  });

  it('a module that throws while importing is a tool failure', async () => {
    const err = await rejection((await node('default', 'l_node_broken.mjs')).call({}, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('refuses to import');
  });

  it("a missing module or export is the contract's fault (exit 3); the error lists the exports", async () => {
    expect(await rejection((await node('default', 'l_nope.mjs')).call({}, callCtx()))).toMatchObject({
      code: 'tool_module_not_found',
      exitCode: 3,
    });
    const err = await rejection((await node('ecoh')).call({}, callCtx()));
    expect(err).toMatchObject({ code: 'tool_function_not_found', exitCode: 3 });
    expect(err.message).toContain('echo, echoAsync');
    expect(err.message).not.toContain('notAFunction,');
    expect((await rejection((await node('notAFunction')).call({}, callCtx()))).code).toBe('tool_function_not_found');
  });

  it('a CommonJS module: `function` reaches into module.exports', async () => {
    expect((await (await node('hello', 'l_node_cjs.cjs')).call({ name: 'Zoë' }, callCtx())).result).toEqual({
      hello: 'Zoë',
    });
  });

  it('a circular result is a clear failure; BigInt, Set and Map have documented readings', async () => {
    const err = await rejection((await node('circular')).call({}, callCtx()));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'failed' });
    expect(err.message).toContain('cannot be sent as JSON');
    expect((await (await node('special')).call({}, callCtx())).result).toEqual({
      big: '12345678901234567890',
      set: [1, 2],
      map: { k: 'v' },
    });
  });

  it('a print loop hits the output limit', async () => {
    const err = await rejection((await node('flood')).call({}, callCtx({ sandbox: { output: '256K' } })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'output' });
  });

  it('a call past its timeout is a limit hit', async () => {
    const err = await rejection((await node('sleep')).call({ seconds: 10 }, callCtx({ timeout: '500ms' })));
    expect(err).toMatchObject({ name: 'ToolRunError', kind: 'limit', limit: 'timeout' });
  });
});

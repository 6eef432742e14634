import { describe, expect, it } from 'vitest';
import { countsAsFailure, mapCallError } from '../../src/runtime/map-error.js';
import { ToolRunError } from '../../src/sandbox/tool-run-error.js';
import { ToolboxError } from '../../src/errors.js';

const limits = {
  timeoutMs: 1500,
  cpuSeconds: 10,
  memoryBytes: 512 * 1024 * 1024,
  processes: 64,
  fileSizeBytes: 16 << 20,
  openFiles: 256,
  outputBytes: 1 << 20,
};

describe('mapCallError', () => {
  it.each([
    ['cpu', /CPU time limit \(10 s, sandbox\.cpu\)/, /sandbox: \{ cpu: 20 \}/],
    ['memory', /memory limit \(512M, sandbox\.memory\)/, /sandbox: \{ memory: 1G \}/],
    ['output', /output limit \(1M, sandbox\.output\)/, /sandbox: \{ output: 2M \}/],
    ['file_size', /file size limit \(16M, sandbox\.file_size\)/, /sandbox: \{ file_size: 32M \}/],
    ['processes', /process limit \(64, sandbox\.processes\)/, /sandbox: \{ processes: 128 \}/],
    ['open_files', /open files limit \(256, sandbox\.open_files\)/, /sandbox: \{ open_files: 1024 \}/],
  ] as const)('limit %s → tool_limit exit 5 naming it and how to raise it', (limit, msg, hint) => {
    const e = mapCallError(new ToolRunError({ kind: 'limit', limit, message: 'x' }), 't', { aborted: false, limits });
    expect(e).toMatchObject({ code: 'tool_limit', exitCode: 5, details: { limit } });
    expect(e.message).toMatch(msg);
    expect(e.hint).toMatch(hint);
    expect(countsAsFailure(e)).toBe(true);
  });

  it('timeout → tool_timeout exit 5 with the seconds and the ways to raise it', () => {
    const e = mapCallError(new ToolRunError({ kind: 'limit', limit: 'timeout', message: 'x' }), 't', {
      aborted: false,
      limits,
    });
    expect(e).toMatchObject({ code: 'tool_timeout', exitCode: 5 });
    expect(e.message).toMatch(/1\.5 s/);
    expect(e.hint).toMatch(/timeout:.*--timeout/s);
  });

  it('failed → tool_failed exit 4 with the tool message; traceback and logs in details', () => {
    const e = mapCallError(
      new ToolRunError({ kind: 'failed', message: 'ValueError: bad', traceback: 'Traceback…', logs: 'printed' }),
      't',
      { aborted: false },
    );
    expect(e).toMatchObject({
      code: 'tool_failed',
      exitCode: 4,
      details: { traceback: 'Traceback…', logs: 'printed' },
    });
    expect(e.message).toMatch(/ValueError: bad/);
  });

  it('keeps ToolboxErrors, turns an abort into cancelled (130), a stray Error into tool_failed', () => {
    const own = new ToolboxError('missing_dependencies', 'm', { exitCode: 6 });
    expect(mapCallError(own, 't', { aborted: false })).toBe(own);
    expect(countsAsFailure(own)).toBe(false);
    const c = mapCallError(new Error('whatever'), 't', { aborted: true });
    expect(c).toMatchObject({ code: 'cancelled', exitCode: 130 });
    expect(countsAsFailure(c)).toBe(false);
    expect(mapCallError(new TypeError('oops'), 't', { aborted: false })).toMatchObject({
      code: 'tool_failed',
      exitCode: 4,
    });
  });

  it('refusals and usage errors do not count against the breaker', () => {
    for (const [code, exitCode] of [
      ['circuit_open', 4],
      ['invalid_arguments', 2],
      ['permission_denied', 7],
    ] as const) {
      expect(countsAsFailure(new ToolboxError(code, 'x', { exitCode }))).toBe(false);
    }
  });
});

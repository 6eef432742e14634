// When the daemon must refuse a request (the client then runs the command directly).
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../src/daemon/request.js';

const own = { proto: 1, version: '1.2.3' };
const ok = {
  op: 'call',
  proto: 1,
  version: '1.2.3',
  argv: ['select', 'weather'],
  cwd: '/work/p',
  env: { PATH: '/usr/bin', HOME: '/home/u', TOOLBOX_SANDBOX: 'bwrap', SECRET: 'x', TOOLBOX_DAEMON: 'on' },
  stdinTTY: false,
  out: { tty: true, columns: 80 },
  err: { tty: false },
};

describe('checkRequest', () => {
  it('accepts a well-formed select or run (its environment is judged by daemon/caller.ts)', () => {
    expect(checkRequest(ok, own)).toBeUndefined();
    expect(checkRequest({ ...ok, argv: ['run', 'add', '--a', '1'] }, own)).toBeUndefined();
    // A run with only one of stdin/stderr on a terminal cannot ask questions: it may go through.
    expect(checkRequest({ ...ok, argv: ['run', 'x'], stdinTTY: true }, own)).toBeUndefined();
  });

  it.each([
    ['another op', { op: 'exec' }, 'malformed', 'unknown request'],
    ['another protocol', { proto: 2 }, 'protocol', 'protocol'],
    ['another version', { version: '1.2.4' }, 'version', 'toolbox 1.2.4'],
    ['another command', { argv: ['validate'] }, 'malformed', 'only select and run'],
    ['argv not strings', { argv: ['select', 1] }, 'malformed', 'malformed argv'],
    ['a relative cwd', { cwd: 'p' }, 'malformed', 'malformed cwd'],
    ['env values not strings', { env: { PATH: ['x'] } }, 'malformed', 'malformed env'],
    ['no terminal facts', { out: undefined }, 'malformed', 'malformed terminal'],
    ['columns not a number', { out: { tty: true, columns: '80' } }, 'malformed', 'malformed terminal'],
    ['an interactive run', { argv: ['run', 'x'], stdinTTY: true, err: { tty: true } }, 'interactive', 'interactive'],
  ])('refuses %s', (_what, change, code, reason) => {
    const r = checkRequest({ ...ok, ...change }, own);
    expect(r?.code).toBe(code);
    expect(r?.why).toContain(reason);
  });
});

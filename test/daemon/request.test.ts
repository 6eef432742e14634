// When the daemon must refuse a request (the client then runs the command directly).
import { describe, expect, it } from 'vitest';
import { checkRequest } from '../../src/daemon/request.js';

const own = { proto: 1, version: '1.2.3', env: { PATH: '/usr/bin', HOME: '/home/u', TOOLBOX_SANDBOX: 'bwrap' } };
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
  it('accepts a well-formed select or run whose toolbox-relevant environment is the daemon’s', () => {
    expect(checkRequest(ok, own)).toBeUndefined();
    expect(checkRequest({ ...ok, argv: ['run', 'add', '--a', '1'] }, own)).toBeUndefined();
    // A run with only one of stdin/stderr on a terminal cannot ask questions: it may go through.
    expect(checkRequest({ ...ok, argv: ['run', 'x'], stdinTTY: true }, own)).toBeUndefined();
  });

  it.each([
    ['another op', { op: 'exec' }, 'unknown request'],
    ['another protocol', { proto: 2 }, 'protocol'],
    ['another version', { version: '1.2.4' }, 'toolbox 1.2.4'],
    ['another command', { argv: ['validate'] }, 'only select and run'],
    ['argv not strings', { argv: ['select', 1] }, 'malformed argv'],
    ['a relative cwd', { cwd: 'p' }, 'malformed cwd'],
    ['env values not strings', { env: { PATH: ['x'] } }, 'malformed env'],
    ['no terminal facts', { out: undefined }, 'malformed terminal'],
    ['columns not a number', { out: { tty: true, columns: '80' } }, 'malformed terminal'],
    ['an interactive run', { argv: ['run', 'x'], stdinTTY: true, err: { tty: true } }, 'interactive'],
    ['another PATH', { env: { ...ok.env, PATH: '/bin' } }, 'PATH differs'],
    ['a missing HOME', { env: { PATH: '/usr/bin', TOOLBOX_SANDBOX: 'bwrap' } }, 'HOME differs'],
    ['another forced sandbox tier', { env: { ...ok.env, TOOLBOX_SANDBOX: 'none' } }, 'TOOLBOX_SANDBOX differs'],
    ['a telemetry endpoint', { env: { ...ok.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' } }, 'OTEL_'],
  ])('refuses %s', (_what, change, reason) => {
    expect(checkRequest({ ...ok, ...change }, own)).toContain(reason);
  });
});

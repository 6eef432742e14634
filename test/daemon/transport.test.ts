// The daemon client's socket through the real binary: the same bytes and exit codes as the direct
// path, a stdin larger than a socket buffer arrives whole, and nothing is added to stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marker } from '../sandbox/helpers.js';
import { daemonProject } from './helpers.js';

const p = daemonProject(marker());
const OFF = { TOOLBOX_DAEMON: 'off' };

beforeAll(async () => {
  p.write('tool_registry/echo.yaml', ECHO);
  expect((await p.tb(['daemon', 'start', '--json', '--idle', '5m'])).code).toBe(0);
}, 30_000);
afterAll(() => p.cleanup(), 30_000);

// Counts the characters of its text, given on its stdin (the client sends the arguments, read from its
// own stdin, to the daemon in one message).
const ECHO = `id: echo_len
name: echo length
description: Returns the length of the text it was given, to show a large input arrived whole.
schema:
  type: object
  properties:
    text: { type: string }
  required: [text]
loader: command
loader_config:
  argv: [python3, -c, "import sys; print(len(sys.stdin.read()))"]
  stdin: '{{text}}'
  parse: text
`;

describe('daemon client socket', () => {
  it('select and run: the same bytes and exit codes through the daemon as directly', async () => {
    const before = (await p.status()).requests as number;
    const text = 'λ'.repeat(400_000); // a stdin larger than a socket buffer: the client's write goes async
    const cases: [string[], string | undefined][] = [
      [['select', 'add two numbers', '--json'], undefined],
      [['select', 'x', '--top', 'zero', '--json'], undefined],
      [['run', 'add', '--a', '2', '--b', '3'], undefined],
      [['run', 'add', '--a', 'x', '--b', '1', '--json'], undefined],
      [['run', 'echo_len'], JSON.stringify({ text })],
    ];
    for (const [argv, input] of cases) {
      const direct = await p.tb(argv, { env: OFF, input });
      const via = await p.tb(argv, { input });
      expect({ argv, ...via }).toEqual({ argv, ...direct });
    }
    expect(JSON.parse((await p.tb(['run', 'echo_len'], { input: JSON.stringify({ text }) })).stdout)).toBe(400_000);
    expect((await p.status()).requests).toBe(before + cases.length + 1); // all of them via the daemon
  }, 120_000);

  it('under --pending-deprecation the client prints no deprecation warning', async () => {
    const before = (await p.status()).requests as number;
    const env = { NODE_OPTIONS: '--pending-deprecation' };
    const direct = await p.tb(['select', 'add two numbers', '--json'], { env: { ...env, ...OFF } });
    const via = await p.tb(['select', 'add two numbers', '--json'], { env });
    expect(via).toEqual(direct);
    expect(via.stderr).toBe('');
    expect((await p.status()).requests).toBe(before + 1);
  }, 60_000);
});

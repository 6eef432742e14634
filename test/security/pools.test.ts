// Item 6: no head-of-line blocking in serve (real warm Python workers, the real ServeCore).
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const p = project({
  'my_tools/__init__.py': '',
  'my_tools/t.py':
    'import time\n\ndef slow(x):\n    time.sleep(float(x))\n    return "slept"\n\ndef fast(x):\n    return "fast"\n',
  'tool_registry/slow.yaml': contract(
    'slow',
    'python_function',
    '{ module: my_tools.t, function: slow }',
    'timeout: 3s',
  ),
  'tool_registry/fast.yaml': contract('fast', 'python_function', '{ module: my_tools.t, function: fast }'),
});
const core = new ServeCore(resolveProject({ cwd: p.dir }), { expose: 'all', caller: {} });
afterAll(async () => {
  await core.close();
  p.cleanup();
});

describe('item 6: bounded pools and fair queuing', () => {
  it('a call to an unrelated tool finishes while 20 slow calls of another session are still running', async () => {
    expect(expected('serve-head-of-line', 'bwrap')).toBe('blocked');
    await core.call('fast', { x: '' }, 'b'); // warm
    const ac = new AbortController();
    let slowDone = 0;
    const slow = Array.from({ length: 20 }, () =>
      core.call('slow', { x: '2.5' }, 'a', ac.signal).finally(() => slowDone++),
    );
    await new Promise((r) => setTimeout(r, 200));
    const r = await core.call('fast', { x: '' }, 'b');
    expect(r.isError).toBeFalsy();
    expect(slowDone).toBe(0);
    ac.abort();
    await Promise.allSettled(slow);
  }, 30_000);

  it('time spent waiting for a worker does not count toward the timeout', async () => {
    expect(expected('serve-queue-timeout', 'bwrap')).toBe('blocked');
    // 8 calls of 1.2 s, timeout 3 s, 4 workers: the second wave waits ~1.2 s, then runs in time.
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => core.call('slow', { x: '1.2' }, `s${i % 3}`)));
    expect(rs.map((r) => r.isError ?? false)).toEqual(Array(8).fill(false));
  }, 30_000);
});

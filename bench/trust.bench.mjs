// The trust boundary's costs (docs/sandbox.md): how long a ReDoS-shaped argument takes to be
// refused, and a slow tool's effect on an unrelated tool's latency in serve (ratio vs unloaded).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setMaxListeners } from 'node:events';
import { REPO, median, table } from './lib.mjs';

const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
const { ServeCore } = await import(join(REPO, 'dist', 'serve', 'core.js'));
const { Runtime } = await import(join(REPO, 'dist', 'runtime', 'runtime.js'));

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-trust-'));
  chmodSync(dir, 0o755);
  const w = (p, c) => {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  };
  const c = (id, fn, extra = '') =>
    `id: ${id}\nname: ${id}\nprovider: bench\ndescription: A tool for the trust boundary benchmark of toolbox, measuring latency.\nschema: { type: object, properties: { x: { type: string, pattern: "^(a+)+$" } } }\nloader: python_function\nloader_config: { module: t.t, function: ${fn} }\n${extra}`;
  w('toolbox.config.yaml', 'registry: r\n');
  w('t/__init__.py', '');
  w('t/t.py', 'import time\ndef slow(x=""):\n    time.sleep(6)\n    return 1\ndef fast(x=""):\n    return 1\n');
  w('r/slow.yaml', c('slow', 'slow', 'timeout: 30s'));
  w('r/fast.yaml', c('fast', 'fast'));
  return dir;
}

export default async function () {
  const dir = project();
  try {
    // ReDoS-shaped argument: 'a' * n + 'b' against ^(a+)+$ (2^n steps for a backtracking engine).
    const rt = new Runtime(resolveProject({ cwd: dir }));
    const redos = [];
    await rt.invoke({ id: 'fast', args: { x: 'aaa' } }); // load and compile first
    for (const n of [28, 40, 10_000]) {
      const t0 = performance.now();
      await rt.invoke({ id: 'fast', args: { x: `${'a'.repeat(n)}b` } }).catch(() => undefined);
      redos.push([`${n} a's + b`, `${(performance.now() - t0).toFixed(2)} ms (refused, exit 2)`]);
    }
    await rt.close();
    table(['ReDoS-shaped argument vs ^(a+)+$', 'time to answer'], redos);

    // Unrelated tool latency in serve, unloaded vs while 20 slow calls of another session run.
    const core = new ServeCore(resolveProject({ cwd: dir }), { expose: 'all', caller: {} });
    const lat = async (k) => {
      const xs = [];
      for (let i = 0; i < k; i++) {
        const t0 = performance.now();
        await core.call('fast', {}, 'b');
        xs.push(performance.now() - t0);
      }
      return median(xs);
    };
    await lat(3);
    const unloaded = await lat(15);
    const ac = new AbortController();
    setMaxListeners(100, ac.signal);
    const slow = Array.from({ length: 20 }, () => core.call('slow', {}, 'a', ac.signal));
    await new Promise((r) => setTimeout(r, 2000)); // the slow tool's workers are up and sleeping
    const loaded = await lat(15);
    ac.abort();
    await Promise.allSettled(slow);
    await core.close();
    table(
      ['unrelated tool in serve', 'median latency', 'ratio'],
      [
        ['unloaded', `${unloaded.toFixed(1)} ms`, '1.00'],
        ['while 20 slow calls of another tool run', `${loaded.toFixed(1)} ms`, (loaded / unloaded).toFixed(2)],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

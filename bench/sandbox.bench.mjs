// Per-call wall time of `python3 -c pass` run directly vs through runSandboxed on each tier that
// works here, measured in this process the same way (spawn, wait for exit and pipes).
import { spawn } from 'node:child_process';
import { median, table } from './lib.mjs';

const N = 30;
const WARMUP = 3;

function direct(path) {
  return new Promise((res, rej) => {
    const c = spawn(path, ['-c', 'pass'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    c.stdout.resume();
    c.stderr.resume();
    c.on('error', rej);
    c.on('close', (code) => (code === 0 ? res() : rej(new Error(`exit ${code}`))));
  });
}

/** Median ms per variant; variants take turns each round so machine noise hits them alike. */
async function timeAll(variants) {
  const xs = variants.map(() => []);
  for (let i = 0; i < WARMUP + N; i++) {
    for (const [j, v] of variants.entries()) {
      const t0 = process.hrtime.bigint();
      await v.run();
      if (i >= WARMUP) xs[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return xs.map(median);
}

export default async function () {
  const sb = await import('../dist/sandbox/index.js');
  const py = await sb.resolveInterpreter('python3');
  const spec = {
    command: py.path,
    args: ['-c', 'pass'],
    env: {},
    readOnlyPaths: py.readOnlyPaths,
    network: false,
    limits: sb.DEFAULT_LIMITS,
  };
  const prev = process.env.TOOLBOX_SANDBOX;
  const variants = [{ name: 'python3 -c pass (direct)', run: () => direct(py.path) }];
  for (const tier of await sb.availableTiers()) {
    variants.push({
      name: `runSandboxed, tier ${tier}`,
      run: async () => {
        process.env.TOOLBOX_SANDBOX = tier;
        const r = await sb.runSandboxed(spec);
        if (r.exitCode !== 0) throw new Error(`${tier}: exit ${r.exitCode} ${r.stderr}`);
      },
    });
  }
  const ms = await timeAll(variants);
  if (prev === undefined) delete process.env.TOOLBOX_SANDBOX;
  else process.env.TOOLBOX_SANDBOX = prev;
  const base = ms[0];
  table(
    [`per call (median of ${N})`, 'ms', 'ratio', 'overhead ms'],
    variants.map((v, i) => [
      v.name,
      ms[i].toFixed(1),
      (ms[i] / base).toFixed(2),
      i === 0 ? '—' : `+${(ms[i] - base).toFixed(1)}`,
    ]),
  );
}

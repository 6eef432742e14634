// The daemon's background check of a large registry's index (docs/daemon.md): in-process, one stat per
// contract file in slices (select/store.ts storedIndexExact), against the verifier process a direct
// command starts for the same check (dist/select/verify-main.js), in the same run, at 10k tools (and 50k
// with BENCH_50K=1). Nothing changed between checks, the common case. CPU time (user+sys) beside wall
// time: the machine is shared. The longest event-loop stall is what a request arriving during the
// in-process check can wait. `nice -n 10 npm run bench -- verify`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { REPO, median, registryAt, table } from './lib.mjs';

const { resolveProject } = await import(join(REPO, 'dist', 'config.js'));
const { openIndex, storedIndexExact } = await import(join(REPO, 'dist', 'select', 'store.js'));
const TIME = '/usr/bin/time';
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function inProcess(project, n) {
  const wall = [];
  const cpu = [];
  const stall = [];
  for (let i = 0; i < n; i++) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const tick = setInterval(() => {}, 1); // the loop keeps turning, as it does for requests
    const c0 = cpuMs();
    const t0 = performance.now();
    if (!(await storedIndexExact(project))) throw new Error('the stored index is not exact');
    wall.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
    clearInterval(tick);
    h.disable();
    stall.push(h.max / 1e6);
  }
  return { wall: median(wall), cpu: median(cpu), stall: median(stall) };
}

function verifierProcess(project, n) {
  const wall = [];
  const cpu = [];
  const rss = [];
  const script = join(REPO, 'dist', 'select', 'verify-main.js');
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS; // as journal.ts starts it
  for (let i = 0; i < n; i++) {
    const timed = existsSync(TIME);
    const argv = [process.execPath, script, project.registryDir, project.stateDir];
    const t0 = performance.now();
    const r = timed
      ? spawnSync(TIME, ['-f', '%U %S %M', ...argv], { env, encoding: 'utf8' })
      : spawnSync(argv[0], argv.slice(1), { env, encoding: 'utf8' });
    wall.push(performance.now() - t0);
    if (timed) {
      const [u, s, m] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
      cpu.push((u + s) * 1000);
      rss.push(m / 1024);
    }
  }
  return { wall: median(wall), cpu: cpu.length ? median(cpu) : NaN, rss: rss.length ? median(rss) : NaN };
}

export default async function () {
  const sizes = process.env.BENCH_50K ? [10_000, 50_000] : [10_000];
  const rows = [];
  for (const n of sizes) {
    const project = resolveProject({ cwd: registryAt(n) });
    await openIndex(project, { full: true, tokens: true }); // exact and stored, as after a first verify
    const a = await inProcess(project, 7);
    const b = verifierProcess(project, 5);
    rows.push([
      n.toLocaleString('en'),
      `${a.wall.toFixed(0)} / ${a.cpu.toFixed(0)} ms`,
      `${a.stall.toFixed(0)} ms`,
      `${b.wall.toFixed(0)} / ${b.cpu.toFixed(0)} ms, ${b.rss.toFixed(0)} MB`,
      `${(b.cpu / a.cpu).toFixed(1)}×`,
    ]);
  }
  table(
    [
      'tools',
      'in-process check: wall / CPU',
      'longest stall',
      'verifier process: wall / CPU, peak RSS',
      'CPU process / in-process',
    ],
    rows,
  );
}

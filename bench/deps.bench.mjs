// Dependency checks: one interpreter call for all tools vs one per tool, and the warm cache that
// `run` reads before loading a tool. In process, against dist/ (run `npm run build` first).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, median, table, timeCommand, BIN } from './lib.mjs';

const N = 20;

function makeProject() {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-bench-deps-'));
  mkdirSync(join(dir, 'tool_registry'));
  for (let i = 0; i < N; i++) {
    writeFileSync(
      join(dir, 'tool_registry', `t${i}.yaml`),
      `id: tool_${i}
name: tool ${i}
description: A benchmark tool that declares a few Python, program and env requirements.
schema: { type: object, properties: {} }
loader: python_function
loader_config: { module: m${i}, function: run }
requires:
  python: ["pip>=1", "no_such_package_${i}", "pip; python_version < '3.0'"]
  bins: [git]
  env: [HOME]
`,
    );
  }
  return dir;
}

async function timeIt(fn, n = 5) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

export default async function () {
  const { resolveProject } = await import(join(REPO, 'dist/config.js'));
  const { loadRegistry } = await import(join(REPO, 'dist/registry/registry.js'));
  const { checkDeps } = await import(join(REPO, 'dist/deps/check.js'));
  const { assertDeps } = await import(join(REPO, 'dist/deps/assert.js'));
  const dir = makeProject();
  try {
    const project = resolveProject({ cwd: dir });
    const entries = loadRegistry(project).entries;
    const env = process.env;
    const batched = await timeIt(() => checkDeps(project, entries, { env, cache: false }), 3);
    const perTool = await timeIt(async () => {
      for (const e of entries) await checkDeps(project, [e], { env, cache: false });
    }, 1);
    await checkDeps(project, entries, { env });
    const warm = await timeIt(() => checkDeps(project, entries, { env }), 9);
    const assertWarm = await timeIt(() => assertDeps(project, entries[0], { env }).catch(() => {}), 21);
    const procEnv = { ...process.env };
    delete procEnv.NODE_EXTRA_CA_CERTS;
    const nodeBase = timeCommand(process.execPath, ['-e', '0'], { env: procEnv, n: 7 });
    const cli = timeCommand(process.execPath, [BIN, 'deps', '--json', '--allow-fail'], {
      cwd: dir,
      env: procEnv,
      n: 7,
    });
    table(
      [`check of ${N} python tools (3 requirements each)`, 'median ms', 'ratio'],
      [
        ['one interpreter call per tool (no cache)', perTool.toFixed(1), (perTool / batched).toFixed(2)],
        ['one interpreter call for all tools (no cache)', batched.toFixed(1), '1.00'],
        ['warm .toolbox/cache/deps.json, all tools', warm.toFixed(2), (warm / batched).toFixed(3)],
        ['assertDeps for one tool, warm cache (before run)', assertWarm.toFixed(2), (assertWarm / batched).toFixed(3)],
        ['`toolbox deps --json` whole process, warm', cli.toFixed(1), (cli / batched).toFixed(2)],
        ['`node -e 0` (for scale)', nodeBase.toFixed(1), (nodeBase / batched).toFixed(2)],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

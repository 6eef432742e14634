// Per-call cost of each loader, in process through the loader API (sandbox included), against
// running the same code directly; and worker mode (long-running processes) against one process per call.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { REPO, median, table, timeCommand } from './lib.mjs';

const ROOT = join(REPO, 'test', 'fixtures', 'tools');

async function timeCalls(fn, { n = 20, warmup = 3 } = {}) {
  const times = [];
  for (let i = 0; i < warmup + n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    if (i >= warmup) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}

export default async function () {
  const { getLoader } = await import(join(REPO, 'dist', 'loaders', 'index.js'));
  const { resolveLimits, probeSandbox, resolveInterpreter } = await import(join(REPO, 'dist', 'sandbox', 'index.js'));
  const project = {
    root: ROOT,
    registryDir: join(ROOT, 'tool_registry'),
    stateDir: join(ROOT, '.toolbox'),
    config: {},
  };
  const load = async (loader, loader_config, longRunning = false, sandbox) =>
    (await getLoader(loader)).load({
      project,
      longRunning,
      verbose: false,
      entry: {
        contract: { id: 'bench', name: 'bench', description: 'bench', schema: {}, loader, loader_config, sandbox },
        file: join(ROOT, 'bench.yaml'),
      },
    });
  const ctx = (network = false) => ({
    signal: new AbortController().signal,
    limits: resolveLimits(undefined, undefined),
    network,
    env: {},
    readOnlyPaths: [],
  });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const { tier } = await probeSandbox({ stateDir: project.stateDir });

  const rows = [];
  const add = (what, direct, directMs, viaMs) =>
    rows.push([what, direct, directMs.toFixed(1), viaMs.toFixed(1), (viaMs / directMs).toPrecision(2)]);

  // The real interpreter, not a pyenv shim (a shim alone costs hundreds of ms); the loader resolves it too.
  const python = (await resolveInterpreter('python3')).path;
  const pyDirect = timeCommand(python, ['-c', 'import l_py_tools; l_py_tools.echo(a=1)'], { cwd: ROOT, env });
  const py = await load('python_function', { module: 'l_py_tools', function: 'echo' });
  add(
    'python_function, one process per call',
    'python -c (import + call)',
    pyDirect,
    await timeCalls(() => py.call({ a: 1 }, ctx())),
  );
  const pyW = await load('python_function', { module: 'l_py_tools', function: 'echo' }, true);
  add(
    'python_function, worker (warm)',
    'python -c (import + call)',
    pyDirect,
    await timeCalls(() => pyW.call({ a: 1 }, ctx()), { n: 200 }),
  );
  await pyW.dispose();

  const nodeEnv = { ...env };
  const nodeDirect = timeCommand(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./l_node_tools.mjs'); await m.echo({ a: 1 });"],
    { cwd: ROOT, env: nodeEnv },
  );
  const nd = await load('node_module', { module: 'l_node_tools.mjs', function: 'echo' });
  add(
    'node_module, one process per call',
    'node -e (import + call)',
    nodeDirect,
    await timeCalls(() => nd.call({ a: 1 }, ctx())),
  );
  const ndW = await load('node_module', { module: 'l_node_tools.mjs', function: 'echo' }, true);
  add(
    'node_module, worker (warm)',
    'node -e (import + call)',
    nodeDirect,
    await timeCalls(() => ndW.call({ a: 1 }, ctx()), { n: 200 }),
  );
  await ndW.dispose();

  const echoDirect = timeCommand('/bin/echo', ['hello']);
  const cmd = await load('command', { argv: ['echo', '{{word}}'] });
  const cmdMs = await timeCalls(() => cmd.call({ word: 'hello' }, ctx()));
  add('command (echo)', '/bin/echo', echoDirect, cmdMs);

  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/x`;
  const fetchMs = await timeCalls(async () => (await fetch(url)).json(), { n: 200 });
  const http = await load('http', { url: `${url}?q={{q}}` }, false, { network: true });
  add('http (127.0.0.1)', 'fetch', fetchMs, await timeCalls(() => http.call({ q: 'x' }, ctx(true)), { n: 200 }));
  server.close();

  console.log(
    `Sandbox tier: ${tier}. Median ms per call; "via loader" includes the sandbox, the runner and JSON both ways.\n`,
  );
  table(['loader', 'direct baseline', 'direct ms', 'via loader ms', 'ratio'], rows);
}

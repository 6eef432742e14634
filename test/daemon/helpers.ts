// A project with small real tools and a private socket folder, for daemon tests through the real binary.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, spawnCli, tempProject } from '../helpers.js';

export const ADD = `id: add
name: add
description: Adds two integers and returns the sum of them.
schema:
  type: object
  properties:
    a: { type: integer }
    b: { type: integer }
  required: [a, b]
loader: python_function
loader_config:
  module: benchtools.trivial
  function: add
`;

export const SHOW_ENV = `id: show_env
name: show env
description: Returns the value of the DAEMON_TEST_VALUE environment variable as the tool sees it.
schema: { type: object, properties: {} }
sandbox: { env: [DAEMON_TEST_VALUE] }
loader: python_function
loader_config:
  module: benchtools.trivial
  function: show_env
`;

export const nap = (mark: string) => `id: nap
name: Nap
description: Sleeps for half a minute so that a caller can interrupt it. Use when testing cancellation.
schema: { type: object, properties: {} }
loader: command
loader_config:
  argv: [sh, -c, "sleep 30", ${mark}]
`;

const PY = `import os
def add(a, b):
    return a + b
def show_env():
    return os.environ.get("DAEMON_TEST_VALUE", "<unset>")
`;

/** A temp project (add, show_env, nap) and a private XDG_RUNTIME_DIR for its daemon. */
export function daemonProject(mark: string) {
  const project = tempProject({
    'benchtools/__init__.py': '',
    'benchtools/trivial.py': PY,
    'tool_registry/add.yaml': ADD,
    'tool_registry/show_env.yaml': SHOW_ENV,
    'tool_registry/nap.yaml': nap(mark),
  });
  const runtimeDir = mkdtempSync(join(tmpdir(), 'toolbox-xdg-')); // mkdtemp: mode 0700
  const env = { XDG_RUNTIME_DIR: runtimeDir };
  const tb = (argv: string[], o: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}) =>
    spawnCli(argv, { cwd: o.cwd ?? project.dir, env: { ...env, ...o.env }, input: o.input });
  const status = async () => JSON.parse((await tb(['daemon', 'status', '--json'])).stdout) as Record<string, any>;
  return {
    ...project,
    runtimeDir,
    env,
    tb,
    status,
    version: () => (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version,
    cleanup: async () => {
      await tb(['daemon', 'stop', '--json']);
      project.cleanup();
      rmSync(runtimeDir, { recursive: true, force: true });
    },
  };
}

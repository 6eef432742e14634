import { join } from 'node:path';
import type { NodeModuleConfig } from '../contract/types.js';
import { resolveInterpreter } from '../sandbox/index.js';
import type { Loader, LoadContext } from './types.js';
import { RUNNERS_DIR, runnerTool } from './util/runner-tool.js';
import { nodeModulePaths } from '../sandbox/tool-paths.js';

export const loader: Loader = {
  type: 'node_module',
  async load(ctx: LoadContext) {
    const cfg = ctx.entry.contract.loader_config as unknown as NodeModuleConfig;
    // The same Node that runs toolbox: its version is known to work with the runner.
    const interp = await resolveInterpreter(process.execPath);
    return runnerTool({
      load: ctx,
      what: 'node runner',
      command: interp.path,
      // The child gets only the contract's allow-listed env (no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS,
      // which alone costs ~90 ms per child); warnings would only add noise to the logs.
      args: ['--no-warnings', join(RUNNERS_DIR, 'node_runner.mjs')],
      env: {},
      readOnlyPaths: [RUNNERS_DIR, ...interp.readOnlyPaths],
      projectPaths: nodeModulePaths(ctx.project.root, cfg.module),
      target: { module: cfg.module, function: cfg.function ?? 'default' },
    });
  },
};

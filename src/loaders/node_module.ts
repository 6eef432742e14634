import { ToolboxError } from '../errors.js';
import type { Loader } from './types.js';

// Placeholder until the node_module loader lands (being written now); keeps the build green.
export const loader: Loader = {
  type: 'node_module',
  async load() {
    throw new ToolboxError('loader_unavailable', "the 'node_module' loader is not available in this build", { exitCode: 4 });
  },
};

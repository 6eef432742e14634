import { ToolboxError } from '../errors.js';
import type { Loader } from './types.js';

// Placeholder until the mcp loader lands (being written now); keeps the build green.
export const loader: Loader = {
  type: 'mcp',
  async load() {
    throw new ToolboxError('loader_unavailable', "the 'mcp' loader is not available in this build", { exitCode: 4 });
  },
};

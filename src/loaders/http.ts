import { ToolboxError } from '../errors.js';
import type { Loader } from './types.js';

// Placeholder until the http loader lands (being written now); keeps the build green.
export const loader: Loader = {
  type: 'http',
  async load() {
    throw new ToolboxError('loader_unavailable', "the 'http' loader is not available in this build", { exitCode: 4 });
  },
};

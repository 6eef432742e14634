import { ToolboxError } from '../errors.js';
import type { Loader } from './types.js';

// Placeholder until the python_function loader lands (being written now); keeps the build green.
export const loader: Loader = {
  type: 'python_function',
  async load() {
    throw new ToolboxError('loader_unavailable', "the 'python_function' loader is not available in this build", { exitCode: 4 });
  },
};

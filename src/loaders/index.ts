import type { LoaderType } from '../contract/types.js';
import type { Loader } from './types.js';

/**
 * The loader map: one line per loader type, each imported on first use so that calling a Python
 * tool never loads the MCP SDK. A new loader type is one file in this folder and one line here
 * (plus its config schema in src/contract/schema.ts).
 */
export const loaderMap: Record<LoaderType, () => Promise<Loader>> = {
  python_function: async () => (await import('./python_function.js')).loader,
  node_module: async () => (await import('./node_module.js')).loader,
  command: async () => (await import('./command.js')).loader,
  http: async () => (await import('./http.js')).loader,
  mcp: async () => (await import('./mcp.js')).loader,
};

export async function getLoader(type: LoaderType): Promise<Loader> {
  return loaderMap[type]();
}

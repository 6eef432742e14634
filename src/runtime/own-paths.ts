import { resolve } from 'node:path';
import type { CommandConfig, NodeModuleConfig, PythonFunctionConfig, ToolContract } from '../contract/types.js';
import { nodeModulePaths, programPaths, pythonModulePaths } from '../sandbox/tool-paths.js';

/**
 * The project folders a tool's loader shows it (its own package, module folder or program), for
 * telling a path the sandbox hides from one that is simply missing. Reads nothing but stat.
 */
export function ownPaths(root: string, c: ToolContract): string[] {
  try {
    switch (c.loader) {
      case 'python_function':
        return pythonModulePaths(root, (c.loader_config as unknown as PythonFunctionConfig).module);
      case 'node_module':
        return nodeModulePaths(root, (c.loader_config as unknown as NodeModuleConfig).module);
      case 'command': {
        const program = (c.loader_config as unknown as CommandConfig).argv[0] ?? '';
        return program.includes('/') ? programPaths(root, resolve(root, program)) : [];
      }
      default:
        return [];
    }
  } catch {
    return [];
  }
}

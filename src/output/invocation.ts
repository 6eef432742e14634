import { dirname, basename, relative, isAbsolute } from 'node:path';

import { PACKAGE_ROOT } from '../util/assets.js';

const inside = (child: string, parent: string): boolean => {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/**
 * How the user typed toolbox, so "Next:" hints run as printed: `npx toolbox` when it came from
 * npx or from the project's own node_modules (a local install is not on PATH), or from a clone of
 * the repository; plain `toolbox` for a global install.
 */
export function invocation(cwd: string, env: NodeJS.ProcessEnv): string {
  if (env.npm_command === 'exec') return 'npx toolbox';
  const parent = dirname(PACKAGE_ROOT.replace(/[\\/]$/, ''));
  if (basename(parent) === 'node_modules' && inside(cwd, dirname(parent))) return 'npx toolbox';
  if (inside(cwd, PACKAGE_ROOT)) return 'npx toolbox';
  return 'toolbox';
}

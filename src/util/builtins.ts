import { createRequire } from 'node:module';

// Node built-ins that cost a few milliseconds each to load (node:crypto ~4 ms, node:child_process
// ~3 ms) and that a warm `select` never uses: the modules on its path load them on first use.
let requireFn: NodeJS.Require | undefined;
const req = (id: string): unknown => (requireFn ??= createRequire(import.meta.url))(id);

/** node:crypto, loaded on first use. */
export const nodeCrypto = (): typeof import('node:crypto') => req('node:crypto') as typeof import('node:crypto');

/** node:child_process, loaded on first use. */
export const childProcess = (): typeof import('node:child_process') =>
  req('node:child_process') as typeof import('node:child_process');

import { createRequire } from 'node:module';

// Node built-ins that cost a few milliseconds each to load (node:crypto ~4 ms) and that a warm
// `select` never uses: the modules on its path load them on first use. (node:child_process is
// loaded the same way, by util/host-process.ts, the only module that starts host processes.)
let requireFn: NodeJS.Require | undefined;
const req = (id: string): unknown => (requireFn ??= createRequire(import.meta.url))(id);

/** node:crypto, loaded on first use. */
export const nodeCrypto = (): typeof import('node:crypto') => req('node:crypto') as typeof import('node:crypto');

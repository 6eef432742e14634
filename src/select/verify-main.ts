// The background re-verification started by journal.ts: stat every contract file of a registry
// and bring the selection index up to date (incrementally) when one changed in place; then write
// the registry cache from the index if there is none (select's first build of a large registry leaves
// it to this process: registry-cache.ts).
import { dirname } from 'node:path';
import { completeRegistryCache } from './registry-cache.js';
import { openIndex } from './store.js';

const [registryDir, stateDir] = process.argv.slice(2);
if (registryDir && stateDir) {
  const project = { root: dirname(registryDir), registryDir, stateDir, config: {} };
  try {
    await openIndex(project, { full: true, tokens: true });
    completeRegistryCache(project);
  } catch {
    /* the next foreground open sees the same problem and reports it */
  }
}

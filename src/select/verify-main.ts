// The background re-verification started by journal.ts: stat every contract file of a registry
// and bring the selection index up to date (incrementally) when one changed in place.
import { dirname } from 'node:path';
import { openIndex } from './store.js';

const [registryDir, stateDir] = process.argv.slice(2);
if (registryDir && stateDir) {
  try {
    await openIndex({ root: dirname(registryDir), registryDir, stateDir, config: {} }, { full: true, tokens: true });
  } catch {
    /* the next foreground open sees the same problem and reports it */
  }
}

#!/usr/bin/env node
// Thin launcher: enable Node's compile cache where it exists (Node >= 22.1), then hand over to dist/main.js.
import module from 'node:module';
if (typeof module.enableCompileCache === 'function') {
  try { module.enableCompileCache(); } catch { /* cache is an optimisation only */ }
}
const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));

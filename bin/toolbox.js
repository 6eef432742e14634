#!/usr/bin/env node
// Thin launcher. `toolbox --version` is answered here from package.json before anything else is
// imported, so it costs about as much as `node -e 0`. Everything else: enable Node's compile
// cache where it exists (Node >= 22.1), then hand over to dist/main.js.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  } catch {
    /* keep the fallback */
  }
  process.stdout.write(version + '\n');
} else {
  if (typeof module.enableCompileCache === 'function') {
    try {
      module.enableCompileCache();
    } catch {
      /* cache is an optimisation only */
    }
  }
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(argv);
}

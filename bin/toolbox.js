#!/usr/bin/env node
// Thin launcher, in CommonJS on purpose (bin/package.json says so): an ES module entry costs
// ~1.2x `node -e 0` before it does anything. `toolbox --version` is answered here from
// package.json with one write(2) and nothing else loaded, so it costs what `node -e 0` costs.
// Everything else goes to dist/launch.cjs (src/launch/, bundled by scripts/bundle.mjs): the daemon
// client for `select` and `run`, and the loader of the CLI.
'use strict';
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const fs = require('node:fs');
  let version = '0.0.0';
  try {
    version = JSON.parse(fs.readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version;
  } catch {
    /* keep the fallback */
  }
  try {
    fs.writeSync(1, version + '\n');
  } catch (e) {
    // The reader went away (EPIPE): nothing to report. Anything else (`> /dev/full`): exit 74.
    if (e.code !== 'EPIPE') {
      process.exitCode = 74;
      try {
        fs.writeSync(2, `error: cannot write the output to stdout (${e.code})\n`);
      } catch {
        /* stderr is gone too */
      }
    }
  }
} else {
  let launch;
  try {
    launch = require('../dist/launch.cjs').launch;
  } catch (e) {
    process.stderr.write(`error: cannot start toolbox: ${e && e.message ? e.message : String(e)}\n`);
    process.exitCode = 70;
  }
  if (launch) launch(argv);
}

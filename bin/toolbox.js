#!/usr/bin/env node
// Thin launcher, in CommonJS on purpose (bin/package.json says so): an ES module entry costs
// ~1.2x `node -e 0` before it does anything. `toolbox --version` is answered here from
// package.json with one write(2) and nothing else loaded, so it costs what `node -e 0` costs.
// Everything else: enable Node's compile cache where it exists (Node >= 22.1), then hand over
// to dist/main.ts's main() (bundled: see load.js), which dispatches `select` and `run` without commander.
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
} else if (argv[0] === 'select' || argv[0] === 'run') {
  // A resident daemon answers these when the user runs one (bin/daemon-call.js); else direct.
  require('./daemon-call.js')
    .tryDaemon(argv)
    .then(
      (code) => (code === undefined ? direct() : (process.exitCode = code)),
      () => direct(),
    );
} else {
  direct();
}

function direct() {
  const mod = require('node:module');
  if (typeof mod.enableCompileCache === 'function') {
    try {
      mod.enableCompileCache();
    } catch {
      /* cache is an optimisation only */
    }
  }
  require('./load.js')
    .loadCli()
    .then(
      ({ main }) =>
        main(argv).then((code) => {
          process.exitCode = code;
        }),
      (e) => {
        process.stderr.write(`error: cannot start toolbox: ${e && e.message ? e.message : String(e)}\n`);
        process.exitCode = 70;
      },
    );
}

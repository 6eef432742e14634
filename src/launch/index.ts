// What bin/toolbox.js hands every command line but `--version` to (bundled into dist/launch.cjs by
// scripts/bundle.mjs, so that the launcher requires one CommonJS file): `select` and `run` go to a
// resident daemon when the user runs one; everything else, and those two without a daemon, load the
// CLI and run it in this process. The daemon path loads neither node:module nor node:vm (code-cache.ts).
import { ExitCode } from '../errors.js';
import { tryDaemon } from '../daemon/client/index.js';

/** Run `argv` (without node and script); the exit code is left in process.exitCode. */
export function launch(argv: string[]): void {
  if (argv[0] !== 'select' && argv[0] !== 'run') return direct(argv);
  tryDaemon(argv).then(
    (code) => (code === undefined ? direct(argv) : void (process.exitCode = code)),
    () => direct(argv),
  );
}

function direct(argv: string[]): void {
  import('./code-cache.js')
    .then(({ loadCli }) => loadCli(argv))
    .then(
      ({ main }) =>
        main(argv).then((code) => {
          process.exitCode = code;
        }),
      (e: unknown) => {
        process.stderr.write(`error: cannot start toolbox: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = ExitCode.internal;
      },
    );
}

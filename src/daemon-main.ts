// Entry of a resident daemon process (started by `toolbox daemon start`, or on demand by the
// launcher when the user set TOOLBOX_DAEMON=on). Serves `select` and `run` through the same
// run(argv, io) as the CLI. Arguments: --marker <project config file or registry folder> [--idle <ms>].
import { run } from './main.js';
import { serveDaemon } from './daemon/lifecycle.js';
import { idleFromSettings } from './daemon/control.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const marker = value('--marker');
if (!marker) {
  process.stderr.write('usage: daemon-main.js --marker <config file or registry folder> [--idle <ms>]\n');
  process.exit(2);
}
const idle = Number(value('--idle'));
const code = await serveDaemon({
  marker,
  idleMs: Number.isInteger(idle) && idle > 0 ? idle : idleFromSettings(process.env),
  handle: run,
});
process.exit(code);

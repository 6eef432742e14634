// `prepare` runs on `npm install`/`npm ci` in a clone and when npm installs this package from git:
// both need dist/ built. `npm pack`/`npm publish` also run it, right after `prepack` has just built
// dist/, so it does nothing there (one build per tarball). Registry installs never run it: the
// tarball ships dist/ prebuilt.
import { spawnSync } from 'node:child_process';

const command = process.env.npm_command;
if (command === 'pack' || command === 'publish') process.exit(0);
const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);

// `toolbox --version` and `--help` against `node -e 0`: what the CLI costs before any command runs.
import { BIN, table, timeCommand } from './lib.mjs';

export default async function () {
  // Measure with the environment a user's shell has, minus variables that slow every Node start
  // (NODE_EXTRA_CA_CERTS costs ~90 ms per process here and would hide the ratio).
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const base = timeCommand(process.execPath, ['-e', '0'], { env });
  const ver = timeCommand(process.execPath, [BIN, '--version'], { env });
  const help = timeCommand(process.execPath, [BIN, '--help'], { env });
  table(
    ['command', 'median ms', 'ratio to node -e 0'],
    [
      ['node -e 0', base.toFixed(1), '1.00'],
      ['toolbox --version', ver.toFixed(1), (ver / base).toFixed(2)],
      ['toolbox --help', help.toFixed(1), (help / base).toFixed(2)],
    ],
  );
}

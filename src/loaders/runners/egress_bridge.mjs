// toolbox's bridge for a program that is not a runner (command tools, MCP stdio servers) with the
// network open: opens the loopback proxy port (egress.mjs), sets the proxy variables, then runs the
// program with the same stdio and fds and exits as it does.
// eslint-disable-next-line no-restricted-syntax -- runs inside the tool's sandbox and starts the tool's own program there
import { spawn } from 'node:child_process';
import { startBridge, proxyEnv } from './egress.mjs';

const [command, ...args] = process.argv.slice(2);
const port = await startBridge(process.env.TOOLBOX_EGRESS_SOCKET, process.env.TOOLBOX_EGRESS_TOKEN ?? '');
const env = { ...process.env, ...proxyEnv(port) };
delete env.TOOLBOX_EGRESS_SOCKET;
delete env.TOOLBOX_EGRESS_TOKEN;
const resultFd = Number(env.TOOLBOX_RESULT_FD || 0);
const stdio = ['inherit', 'inherit', 'inherit'];
for (let fd = 3; fd <= resultFd; fd++) stdio.push(fd === resultFd ? fd : 'ignore');
const child = spawn(command, args, { stdio, env });
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('error', (e) => {
  process.stderr.write(`${command}: ${e.message}\n`);
  process.exit(e.code === 'ENOENT' ? 127 : 126);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});

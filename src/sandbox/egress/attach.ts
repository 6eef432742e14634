// Giving one sandboxed process with the network open its way out: the proxy socket of its policy,
// the variable that names it inside, and (for a program that is not a runner) toolbox's bridge in
// front of it. A tier without network namespaces cannot keep the tool off the host's network: the
// tool does not run there.
import { join } from 'node:path';
import { ExitCode, ToolboxError } from '../../errors.js';
import { codePath } from '../../util/assets.js';
import { resolveInterpreter } from '../interpreter.js';
import { SANDBOX_SOCKET, type Tools } from '../wrap.js';
import type { SandboxSpec, SandboxTier } from '../types.js';
import { egressProxy } from './index.js';
import { egressToken } from './proxy.js';

export async function withEgress<S extends Omit<SandboxSpec, 'stdin'>>(
  spec: S,
  tier: SandboxTier,
  tools: Tools,
): Promise<S> {
  if (!spec.network) return spec;
  if (tier === 'none')
    throw new ToolboxError(
      'network_unconfined',
      `The sandbox tier 'none' cannot give the tool a network namespace of its own, so a tool with the network open would share this host's network (its loopback services, private addresses and abstract sockets); refused`,
      {
        exitCode: ExitCode.permission,
        hint: 'Install bubblewrap (apt-get install bubblewrap) or allow user namespaces, then check `toolbox doctor`; or run the tool with its network closed.',
      },
    );
  if (tier === 'unshare' && !tools.ip)
    throw new ToolboxError(
      'network_unconfined',
      `The sandbox tier 'unshare' needs iproute2's ip (in a trusted system folder) to bring up the tool's own loopback for the egress proxy; refused`,
      { exitCode: ExitCode.permission, hint: 'Install iproute2 (apt-get install iproute2), or bubblewrap.' },
    );
  const egress = spec.egress ?? {
    socket: (await egressProxy().lease({ tool: 'tool', hosts: true, grants: [] })).socket,
    bridge: 'wrap' as const,
  };
  // bwrap binds the socket at a fixed path; on tier unshare the tool sees the host's file system.
  const inside = tier === 'bwrap' ? SANDBOX_SOCKET : egress.socket;
  // The socket's token goes with it: the runners and the bridge write it first on every connection,
  // so a tool that can see another policy's socket (tier unshare) still cannot use it (proxy.ts).
  const token = egressToken(egress.socket);
  if (!token) throw new Error(`no egress listener on ${egress.socket} in this process`);
  const out: S = {
    ...spec,
    egress,
    env: { ...spec.env, TOOLBOX_EGRESS_SOCKET: inside, TOOLBOX_EGRESS_TOKEN: token },
  };
  if (egress.bridge === 'self') return out;
  const node = await resolveInterpreter(process.execPath);
  const runners = codePath('loaders', 'runners');
  return {
    ...out,
    command: node.path,
    args: ['--no-warnings', join(runners, 'egress_bridge.mjs'), spec.command, ...spec.args],
    readOnlyPaths: [...new Set([...spec.readOnlyPaths, runners, ...node.readOnlyPaths])],
  };
}

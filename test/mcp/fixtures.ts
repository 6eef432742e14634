// Shared helpers for the MCP tests: real reference servers from node_modules, a temp project
// that can reach them, and call contexts for the loader.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, linkNodeModules, tempProject } from '../helpers.js';
import type { Project } from '../../src/config.js';
import type { ToolContract, ToolEntry } from '../../src/contract/types.js';
import type { CallContext } from '../../src/loaders/types.js';
import type { ResolvedLimits } from '../../src/sandbox/types.js';

export const EVERYTHING = join(REPO, 'node_modules', '.bin', 'mcp-server-everything');
export const FILESYSTEM = join(REPO, 'node_modules', '.bin', 'mcp-server-filesystem');

export const LIMITS: ResolvedLimits = {
  timeoutMs: 20_000,
  cpuSeconds: 60,
  memoryBytes: 1 << 30,
  processes: 64,
  fileSizeBytes: 16 << 20,
  openFiles: 256,
  outputBytes: 1 << 20,
};

/** A temp project whose node_modules is the repo's, so relative server commands resolve. */
export function mcpProject(files: Record<string, string> = {}) {
  const p = tempProject({ 'tool_registry/.keep': '', ...files });
  linkNodeModules(p.dir);
  const project: Project = {
    root: p.dir,
    registryDir: join(p.dir, 'tool_registry'),
    stateDir: join(p.dir, '.toolbox'),
    config: {},
  };
  return { ...p, project };
}

export function entry(
  id: string,
  loader_config: Record<string, unknown>,
  extra: Partial<ToolContract> = {},
): ToolEntry {
  return {
    contract: {
      id,
      name: id,
      description: `test tool ${id}`,
      schema: { type: 'object' },
      loader: 'mcp',
      loader_config,
      ...extra,
    },
    file: `/virtual/${id}.yaml`,
    line: 1,
  };
}

export function callCtx(over: Partial<CallContext> & { timeoutMs?: number } = {}): CallContext {
  const { timeoutMs, ...rest } = over;
  return {
    signal: new AbortController().signal,
    limits: { ...LIMITS, ...(timeoutMs ? { timeoutMs } : {}) },
    network: false,
    env: {},
    readOnlyPaths: [],
    // The grant mcpProject's linked node_modules needs (what the runtime reads from grants.yaml).
    granted: () => [realpathSync(join(REPO, 'node_modules'))],
    ...rest,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** server-everything over Streamable HTTP on a free port; resolves once it listens. */
export async function everythingHttp(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((res, rej) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c;
      if (err.includes('listening')) res();
    });
    child.once('exit', (code) => rej(new Error(`server-everything exited ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: () =>
      new Promise((res) => {
        child.once('exit', () => res());
        child.kill('SIGKILL');
      }),
  };
}

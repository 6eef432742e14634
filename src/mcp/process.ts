import type { SandboxSpec, SandboxTier } from '../sandbox/types.js';
import type { SandboxProcess } from '../sandbox/process-types.js';

/**
 * Start a stdio MCP server inside the sandbox: the one place the mcp loader and `import mcp`
 * start server code. The process is long-lived (started on first use, reused when the process
 * is long-running); killing it tears down its whole tree.
 */
export async function startServerProcess(
  spec: Omit<SandboxSpec, 'stdin'>,
): Promise<{ proc: SandboxProcess; tier: SandboxTier }> {
  const { startSandboxed, probeSandbox } = await import('../sandbox/index.js');
  const [proc, info] = await Promise.all([startSandboxed(spec), probeSandbox()]);
  return { proc, tier: info.tier };
}

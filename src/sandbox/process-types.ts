import type { SandboxResult } from './types.js';

// Apart from types.ts because it names Node's stream types: types.ts is reachable from the public
// library types (src/index.ts), which must compile in a project without @types/node.

/** A long-lived sandboxed process (MCP stdio servers, warm Python workers). */
export interface SandboxProcess {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream;
  pid: number | undefined;
  /** Resolves when the whole process tree is gone. */
  exited: Promise<SandboxResult>;
  /** Kill the whole process tree (SIGKILL to the namespace). */
  kill(): void;
}

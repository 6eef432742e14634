import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/client';
import type { SandboxProcess } from '../sandbox/process-types.js';

/**
 * An MCP client transport over a process that is already running (a SandboxProcess): newline-
 * delimited JSON-RPC on its stdin/stdout. The SDK's StdioClientTransport spawns its own child,
 * which would bypass the sandbox; this one only talks to streams it is given. It has `pid` and
 * `stderr` like the SDK's stdio transport, which is how the SDK's version negotiation recognises a
 * stdio channel (a probe that times out there means a 2025 server, not an outage).
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly buf = new ReadBuffer();
  private closed = false;

  constructor(private readonly proc: SandboxProcess) {}

  get pid(): number | null {
    return this.proc.pid ?? null;
  }

  get stderr(): NodeJS.ReadableStream {
    return this.proc.stderr;
  }

  /** Whether the server process has gone (crash, kill, limit, or it quit on a message it did not know). */
  get ended(): boolean {
    return this.closed;
  }

  async start(): Promise<void> {
    this.proc.stdout.on('data', (chunk: Buffer) => {
      try {
        this.buf.append(chunk);
        for (;;) {
          let msg: JSONRPCMessage | null;
          try {
            msg = this.buf.readMessage();
          } catch (e) {
            // One garbled line (a server that prints to stdout) must not end the session.
            this.onerror?.(e as Error);
            continue;
          }
          if (msg === null) break;
          this.onmessage?.(msg);
        }
      } catch (e) {
        this.onerror?.(e as Error);
      }
    });
    this.proc.stdout.on('error', (e: Error) => this.onerror?.(e));
    this.proc.stdin.on('error', (e: Error) => this.onerror?.(e));
    // The server going away (crash, kill, limit) closes the session: pending requests reject.
    void this.proc.exited.then(
      () => this.finish(),
      () => this.finish(),
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('MCP server process has exited'));
    return new Promise((resolve, reject) => {
      const ok = this.proc.stdin.write(serializeMessage(message), (err?: Error | null) => {
        if (err) reject(err);
      });
      if (ok) resolve();
      else this.proc.stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.proc.stdin.end();
    } catch {
      /* already gone */
    }
    this.proc.kill();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buf.clear();
    this.onclose?.();
  }
}

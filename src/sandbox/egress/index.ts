// toolbox's egress proxy: one per toolbox process (CLI run, serve, daemon), started on the first
// call of a tool with the network open and kept for the process's life (warm workers keep using
// their socket). Each tool policy (tool, sandbox.network, the user's grants) gets its own Unix
// socket in a private 0700 folder; only that socket is bound into the tool's sandbox, so a tool
// cannot borrow another tool's grants. See docs/sandbox.md "Network".
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, type Listener, type ProxyStats } from './proxy.js';
import { systemResolver, type EgressPolicy, type Resolver } from './policy.js';

export type { EgressPolicy, Refusal, Resolver } from './policy.js';
export type { Listener } from './proxy.js';

export class EgressProxy {
  readonly stats: ProxyStats = { dials: 0, refused: 0 };
  private dir?: string;
  private readonly listeners = new Map<string, Promise<Listener>>();
  private n = 0;

  constructor(private readonly resolve: Resolver = systemResolver) {}

  /** The listener for `policy` (made on first use, then shared by every call with the same policy). */
  lease(policy: EgressPolicy): Promise<Listener> {
    const key = JSON.stringify([
      policy.tool,
      policy.project ?? '',
      policy.hosts === true ? true : [...policy.hosts].sort(),
      [...policy.grants].sort(),
    ]);
    let l = this.listeners.get(key);
    if (!l) {
      if (!this.dir) {
        this.dir = mkdtempSync(join(tmpdir(), 'toolbox-egress-'));
        chmodSync(this.dir, 0o700);
        const dir = this.dir;
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      }
      const socket = join(this.dir, `p${++this.n}.sock`);
      l = listen(socket, policy, this.resolve, this.stats).then((x) => {
        // The folder (0700) keeps other users out; the tool may run under a uid of its own.
        chmodSync(socket, 0o666);
        return x;
      });
      l.catch(() => this.listeners.delete(key));
      this.listeners.set(key, l);
    }
    return l;
  }

  /** Close every listener and remove the folder. */
  async close(): Promise<void> {
    const all = [...this.listeners.values()];
    this.listeners.clear();
    for (const p of all) {
      try {
        await (await p).close();
      } catch {
        /* never listened */
      }
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

let shared: EgressProxy | undefined;

/** This process's proxy (created lazily). */
export function egressProxy(): EgressProxy {
  return (shared ??= new EgressProxy());
}

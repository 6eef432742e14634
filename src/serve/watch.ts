// Registry edits reach connected clients: a new, removed or edited contract changes the tool list,
// and every client that asked to hear about it (2026-07-28: subscriptions/listen with
// toolsListChanged; 2025-11-25: the session's stream) is sent notifications/tools/list_changed.
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';

/** How long file events settle before the list is compared (an editor's save is several events). */
const SETTLE_MS = 100;
/** Without file events (watch unavailable), how often the list is compared. */
const POLL_MS = 2000;

/** A digest of what clients see of the tools (their MCP definitions), to tell a real change from a touch. */
export function toolsDigest(defs: unknown[]): string {
  const h = createHash('sha256');
  for (const d of defs) h.update(JSON.stringify(d)).update('\n');
  return h.digest('hex').slice(0, 32);
}

/**
 * Watches a registry folder (recursively; polling when the platform cannot) and calls `changed`
 * with the new digest whenever `digest()` differs from the last one seen.
 */
export class RegistryWatcher {
  private watcher?: FSWatcher;
  private poller?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private last: string;

  constructor(
    private readonly dir: string,
    private readonly digest: () => string,
    private readonly changed: (digest: string) => void,
  ) {
    this.last = digest();
  }

  start(): void {
    try {
      this.watcher = watch(this.dir, { recursive: true, persistent: false }, () => this.soon());
      this.watcher.on('error', () => this.poll());
    } catch {
      this.poll();
    }
  }

  /** Compare now (also what a file event leads to, after SETTLE_MS). */
  check(): void {
    let now: string;
    try {
      now = this.digest();
    } catch {
      return; // a registry mid-edit that cannot be read: the next event or poll looks again
    }
    if (now === this.last) return;
    this.last = now;
    this.changed(now);
  }

  stop(): void {
    this.watcher?.close();
    clearInterval(this.poller);
    clearTimeout(this.timer);
  }

  private soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), SETTLE_MS);
    this.timer.unref();
  }

  private poll(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poller) return;
    this.poller = setInterval(() => this.check(), POLL_MS);
    this.poller.unref();
  }
}

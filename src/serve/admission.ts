// Which requests of `serve --http` may be in flight at once, and whose turn it is when they may not.
// Three bounds hold together: per client (a 2025 session, or a stateless client), per principal
// (everything one token sends from one peer: all its clients together), and for the replica. A
// request over a bound waits in a short queue (clients take turns as slots free) before it is
// refused with 429 and Retry-After, so a burst is served late rather than failed, and one client
// flooding the server waits behind its own requests, not in front of everyone else's.

/** The bounds (defaults in DEFAULT_ADMISSION). */
export interface AdmissionSettings {
  /** Messages in flight per client (a session, or one stateless client). */
  perClient: number;
  /** Messages in flight per principal (one token from one peer: every client it speaks for). */
  perPrincipal: number;
  /** Messages in flight on this replica. */
  global: number;
  /** How long a request waits for a slot before it is refused. */
  queueMs: number;
  /** Requests waiting on this replica (each client at most perClient of them). */
  maxQueued: number;
}

export const DEFAULT_ADMISSION: AdmissionSettings = {
  perClient: 32,
  perPrincipal: 256,
  global: 1024,
  queueMs: 2000,
  maxQueued: 1024,
};

/** Whose request it is: `client` is always a sub-key of `principal`. */
export interface Who {
  principal: string;
  client: string;
}

/** A refused request: always 429 with a Retry-After. */
export interface AdmissionRefusal {
  status: 429;
  message: string;
  retryAfterS: number;
}

interface Waiter {
  who: Who;
  count: number;
  grant: () => void;
  refuse: (r: AdmissionRefusal) => void;
}

const refusal = (message: string): AdmissionRefusal => ({ status: 429, message, retryAfterS: 1 });

/** The in-flight bounds of one replica, with a fair waiting line in front of them. */
export class Admission {
  private readonly clients = new Map<string, number>();
  private readonly principals = new Map<string, number>();
  private total = 0;
  /** Waiting requests per client; Map order is the rotation (a client served moves to the back). */
  private readonly waiting = new Map<string, Waiter[]>();
  private queued = 0;

  constructor(readonly settings: AdmissionSettings) {}

  get inFlight(): number {
    return this.total;
  }

  /**
   * Take `count` slots for `who`, waiting up to `queueMs` for them. Resolves to the (idempotent)
   * release, or a refusal. `signal` aborts the wait (the client went away).
   */
  take(who: Who, count: number, signal?: AbortSignal): Promise<(() => void) | AdmissionRefusal> {
    const s = this.settings;
    if (count > s.perClient)
      return Promise.resolve(
        refusal(`Too many requests in flight from this client (${count} messages, at most ${s.perClient} at once)`),
      );
    if (this.queued === 0 && this.fits(who, count)) return Promise.resolve(this.grant(who, count));
    const own = this.waiting.get(who.client) ?? [];
    if (own.reduce((n, w) => n + w.count, 0) + count > s.perClient)
      return Promise.resolve(
        refusal(`Too many requests from this client (${s.perClient} in flight and ${s.perClient} waiting at most)`),
      );
    if (this.queued >= s.maxQueued && !this.makeRoom(who.client)) return Promise.resolve(this.full(who, count));
    return new Promise((resolve) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const q = this.waiting.get(who.client);
        const i = q ? q.indexOf(w) : -1;
        if (i < 0) return;
        q!.splice(i, 1);
        this.queued--;
        if (!q!.length) this.waiting.delete(who.client);
      };
      const w: Waiter = {
        who,
        count,
        grant: () => {
          leave();
          resolve(this.grant(who, count));
        },
        refuse: (r) => {
          leave();
          resolve(r);
        },
      };
      const onAbort = () => w.refuse(refusal('The client went away while its request waited'));
      const timer = setTimeout(() => w.refuse(this.full(who, count)), s.queueMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const q = this.waiting.get(who.client);
      if (q) q.push(w);
      else this.waiting.set(who.client, [w]);
      this.queued++;
      this.dispatch();
    });
  }

  private fits(who: Who, count: number): boolean {
    const s = this.settings;
    return (
      this.total + count <= s.global &&
      (this.clients.get(who.client) ?? 0) + count <= s.perClient &&
      (this.principals.get(who.principal) ?? 0) + count <= s.perPrincipal
    );
  }

  private grant(who: Who, count: number): () => void {
    this.total += count;
    bump(this.clients, who.client, count);
    bump(this.principals, who.principal, count);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.total -= count;
      bump(this.clients, who.client, -count);
      bump(this.principals, who.principal, -count);
      this.dispatch();
    };
  }

  /** Hand free slots to waiting clients in turn: the first waiter of each client that fits. */
  private dispatch(): void {
    let granted = true;
    while (granted && this.queued > 0) {
      granted = false;
      for (const [client, q] of this.waiting) {
        const w = q[0]!;
        if (!this.fits(w.who, w.count)) continue;
        this.waiting.delete(client);
        if (q.length > 1) this.waiting.set(client, q); // to the back of the rotation
        w.grant();
        granted = true;
        break;
      }
    }
  }

  /**
   * The line is full and `client` wants a place: the longest line of another client, when longer than
   * this client's would become, gives up its newest request (refused). False when none can.
   */
  private makeRoom(client: string): boolean {
    const own = this.waiting.get(client)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const [c, q] of this.waiting) if (c !== client && (!longest || q.length > longest.length)) longest = q;
    if (!longest || longest.length <= own + 1) return false;
    const victim = longest[longest.length - 1]!;
    victim.refuse(this.full(victim.who, victim.count));
    return true;
  }

  /** Which bound a request that cannot be admitted now is over. */
  private full(who: Who, count: number): AdmissionRefusal {
    const s = this.settings;
    if ((this.clients.get(who.client) ?? 0) + count > s.perClient)
      return refusal(`Too many requests in flight from this client (at most ${s.perClient} at once)`);
    if ((this.principals.get(who.principal) ?? 0) + count > s.perPrincipal)
      return refusal(
        `Too many requests in flight from this client's host and token (at most ${s.perPrincipal} at once)`,
      );
    return refusal(`Too many requests in flight on this server (at most ${s.global} at once)`);
  }
}

function bump(m: Map<string, number>, key: string, by: number): void {
  const v = (m.get(key) ?? 0) + by;
  if (v <= 0) m.delete(key);
  else m.set(key, v);
}

import type { CommandContext } from '../output/context.js';
import type { SharedState, StateStatus } from '../state/shared.js';
import { resolveStateUrl, type StateUrl } from '../state/url.js';

/** The shared store a command uses, and how to let it go. */
export interface OpenedState {
  state: SharedState;
  release: () => Promise<void>;
}

/** The state URL in force for this command (`--state`, $TOOLBOX_STATE_URL, the user's config), if any. */
export function stateUrlFor(ctx: CommandContext, flag: unknown, projectRoot: string): StateUrl | undefined {
  return resolveStateUrl({
    ...(flag !== undefined ? { flag: String(flag) } : {}),
    env: ctx.io.env,
    projectRoot,
  });
}

/** How a health change reads for people (never the credentials: `url` is the redacted form). */
export function stateNotice(s: StateStatus): string {
  return s.health === 'connected'
    ? `state: connected to ${s.url}`
    : `state: ${s.url} unreachable${s.lastError ? ` (${s.lastError})` : ''}: using this machine's .toolbox/ until it is back (reconnecting)`;
}

/**
 * Connect to the shared store when a state URL is in force (the Redis client is loaded only then).
 * A store that cannot be reached is a warning, not an error: the command goes on with local state.
 */
export async function openState(
  ctx: CommandContext,
  flag: unknown,
  projectRoot: string,
  say: (s: string) => void = (s) => ctx.io.stderr.write(`${s}\n`),
): Promise<OpenedState | undefined> {
  const url = stateUrlFor(ctx, flag, projectRoot);
  if (!url) return undefined;
  const { acquireSharedState } = await import('../state/shared.js');
  let opened: OpenedState;
  if (ctx.io.keep) {
    // A long-lived host (the daemon) keeps one connection per URL for all its calls, and closes it.
    const kept = ctx.io.keep(`state:${url.url}`, () => {
      const p = acquireSharedState(url);
      return { p, close: async () => (await p).release() };
    });
    opened = { state: (await kept.p).state, release: () => Promise.resolve() };
  } else opened = await acquireSharedState(url);
  const s = opened.state.status();
  if (s.health !== 'connected') say(ctx.style.yellow(stateNotice(s)));
  else if (ctx.opts.verbose) say(ctx.style.dim(`${stateNotice(s)} (from ${url.source})`));
  return opened;
}

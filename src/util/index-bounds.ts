// How long pip and npm may wait on a package index. Their defaults retry an index that accepts a
// connection and never answers for minutes (pip: 15 s × 6 tries per request with back-off; npm:
// 5 min per fetch): `deps --install` sat silent for 8 min 47 s on one. With these bounds an
// unreachable index fails in well under a minute (measured here: ~22 s for pip and for npm against a
// local port that accepts and never answers), and what failed names the index and what to do.

/** pip: 10 s per connection or read, one retry. */
export const PIP_NET_ARGS = ['--timeout', '10', '--retries', '1'];

/** npm: 10 s per fetch, one retry after 1-3 s. Given on the command line, they win over any .npmrc. */
export const NPM_NET_ARGS = [
  '--fetch-timeout=10000',
  '--fetch-retries=1',
  '--fetch-retry-mintimeout=1000',
  '--fetch-retry-maxtimeout=3000',
];

/** An index that could not be reached: where, and how it failed. */
export interface UnreachableIndex {
  /** scheme://host:port of the index (or host:port when only that is known). */
  index: string;
  why: 'timed out' | 'refused the connection' | 'could not be resolved';
}

const origin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** Whether pip's or npm's output says an index was unreachable, and which. */
export function unreachableIndex(output: string): UnreachableIndex | undefined {
  const why = (s: string): UnreachableIndex['why'] | undefined =>
    /ReadTimeoutError|ConnectTimeoutError|timed out|network timeout|ETIMEDOUT|ERR_SOCKET_TIMEOUT/i.test(s)
      ? 'timed out'
      : /Connection refused|ECONNREFUSED/.test(s)
        ? 'refused the connection'
        : /NameResolutionError|Failed to resolve|Name or service not known|ENOTFOUND|EAI_AGAIN/.test(s)
          ? 'could not be resolved'
          : undefined;
  // pip names the index it looks in ("Looking in indexes: URL, …") unless it is the default.
  const looking = /Looking in indexes:\s*([^\s,]+)/.exec(output)?.[1];
  // pip: "… connection broken by 'ReadTimeoutError("HTTPConnectionPool(host='h', port=1): …")': /simple/x/"
  // or, refused, "… NewConnectionError(…: [Errno 111] Connection refused')': /simple/x/" (no host)
  for (const line of output.split('\n')) {
    const pool = /(HTTPS?)ConnectionPool\(host='([^']+)', port=(\d+)\)/.exec(line);
    const w = why(line);
    if (pool && w) return { index: `${pool[1]!.toLowerCase()}://${pool[2]}:${pool[3]}`, why: w };
    if (w && /connection broken by/.test(line))
      return { index: looking ? origin(looking) : "pip's configured index (`pip config list`)", why: w };
    // npm: "network timeout at: http://h:1/pkg", "request to http://h:1/pkg failed, reason: connect ECONNREFUSED"
    const npm = /(?:network timeout at:|request to)\s+(https?:\/\/\S+)/.exec(line);
    if (npm && w) return { index: origin(npm[1]!), why: w };
  }
  return undefined;
}

/** The error and the fix for an unreachable index, for pip or npm. */
export function unreachableText(u: UnreachableIndex, tool: 'pip' | 'npm'): { error: string; fix: string } {
  const tries = 'after 2 tries of 10 s';
  return tool === 'pip'
    ? {
        error: `the package index ${u.index} ${u.why} (${u.why === 'timed out' ? tries : 'pip gave up'})`,
        fix: `Check the network or proxy (HTTPS_PROXY), or point pip at an index that answers: PIP_INDEX_URL, or index-url in your pip.conf (\`pip config list\` shows it). Wheels given as local files in requires.python need no index.`,
      }
    : {
        error: `the npm registry ${u.index} ${u.why} (${u.why === 'timed out' ? tries : 'npm gave up'})`,
        fix: `Check the network or proxy, or point npm at a registry that answers: \`npm config set registry <url>\` (your ~/.npmrc's registry, auth and proxy settings are used).`,
      };
}

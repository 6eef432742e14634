import { describe, expect, it } from 'vitest';
import { NPM_NET_ARGS, PIP_NET_ARGS, unreachableIndex } from '../../src/util/index-bounds.js';

describe('unreachableIndex', () => {
  it.each([
    [
      `WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPConnectionPool(host='127.0.0.1', port=38375): Read timed out. (read timeout=10.0)")': /simple/six/`,
      { index: 'http://127.0.0.1:38375', why: 'timed out' },
    ],
    [
      `Looking in indexes: http://127.0.0.1:9/simple\nWARNING: Retrying (Retry(total=0)) after connection broken by 'NewConnectionError('<x>: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/x/`,
      { index: 'http://127.0.0.1:9', why: 'refused the connection' },
    ],
    [
      'npm error network timeout at: http://127.0.0.1:38375/left-pad',
      { index: 'http://127.0.0.1:38375', why: 'timed out' },
    ],
    [
      'npm error request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9',
      { index: 'http://127.0.0.1:9', why: 'refused the connection' },
    ],
  ])('%s', (text, want) => {
    expect(unreachableIndex(text)).toEqual(want);
  });

  it('a package that is not there is not an unreachable index', () => {
    expect(unreachableIndex('ERROR: No matching distribution found for zz9')).toBeUndefined();
    expect(unreachableIndex('npm error 404 Not Found - GET http://127.0.0.1:9/zz9')).toBeUndefined();
  });

  it('bounds every wait: pip 10 s × 2 tries, npm 10 s × 2 tries', () => {
    expect(PIP_NET_ARGS).toEqual(['--timeout', '10', '--retries', '1']);
    expect(NPM_NET_ARGS).toContain('--fetch-timeout=10000');
    expect(NPM_NET_ARGS).toContain('--fetch-retries=1');
  });
});

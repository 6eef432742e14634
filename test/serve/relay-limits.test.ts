// The per-call relay limits of serve: resolved from the user's config.yaml and the flags, and
// applied to a tool's notifications and questions.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolboxError } from '../../src/errors.js';
import type { ToolClient } from '../../src/loaders/types.js';
import { loadUserConfig } from '../../src/policy/user-config.js';
import { DEFAULT_RELAY_LIMITS, limitRelay, resolveRelayLimits } from '../../src/serve/relay-limits.js';

const home = mkdtempSync(join(tmpdir(), 'toolbox-relay-'));
mkdirSync(join(home, 'toolbox'), { mode: 0o700 });
const file = join(home, 'toolbox', 'config.yaml');
const prev = process.env.XDG_CONFIG_HOME;
process.env.XDG_CONFIG_HOME = home;
afterAll(() => {
  if (prev === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = prev;
  rmSync(home, { recursive: true, force: true });
});

const withConfig = (text: string) => {
  writeFileSync(file, text, { mode: 0o600 });
  return loadUserConfig();
};
const error = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('no error');
};

describe('resolveRelayLimits', () => {
  it('defaults without a config file or flags', () => {
    rmSync(file, { force: true });
    expect(resolveRelayLimits(loadUserConfig())).toEqual(DEFAULT_RELAY_LIMITS);
  });

  it("takes the user's serve section, then the flags", () => {
    const user = withConfig(
      'serve:\n  notifications: { max_count: 10, max_bytes: 2048 }\n  sampling: { max_tokens: 4096, include_context: thisServer }\n  elicitation: { max_requests: 0 }\n',
    );
    const l = resolveRelayLimits(user, { samplingRequests: '2', samplingContext: 'allServers' });
    expect(l.notifications).toEqual({ maxCount: 10, maxBytes: 2048 });
    expect(l.sampling).toEqual({
      maxRequests: 2,
      maxTokens: 4096,
      includeContext: 'allServers',
      maxRequestBytes: 65536,
    });
    expect(l.elicitation.maxRequests).toBe(0);
  });

  it('reports a bad setting at its line and column, and bad flags as usage errors', () => {
    const e = error(() => resolveRelayLimits(withConfig('serve:\n  sampling:\n    max_tokens: lots\n')));
    expect(e.code).toBe('user_config_invalid');
    expect(e.exitCode).toBe(3);
    expect(e.location).toMatchObject({ file, line: 3, column: 5 });
    expect(error(() => resolveRelayLimits(withConfig('serve:\n  smapling: {}\n'))).message).toMatch(
      /serve\.smapling is not a setting/,
    );
    expect(error(() => resolveRelayLimits(withConfig('serve: [1]\n'))).code).toBe('user_config_invalid');
    expect(error(() => loadUserConfig() && withConfig('serve: {\n')).code).toBe('user_config_invalid');
    rmSync(file);
    const u = loadUserConfig();
    expect(error(() => resolveRelayLimits(u, { samplingMaxTokens: '-1' })).code).toBe('invalid_option');
    expect(error(() => resolveRelayLimits(u, { samplingContext: 'everything' })).exitCode).toBe(2);
  });
});

describe('limitRelay', () => {
  const recorder = () => {
    const sent: unknown[] = [];
    const client: ToolClient = {
      log: (m) => void sent.push(m),
      progress: (p) => void sent.push(p),
      request: async (method, params) => ({ method, params }),
    };
    return { client, sent };
  };

  it('narrows includeContext to what is allowed, fills and caps maxTokens', async () => {
    const { client } = recorder();
    const limits = structuredClone(DEFAULT_RELAY_LIMITS);
    limits.sampling.includeContext = 'thisServer';
    const c = limitRelay(client, limits, 't');
    const ask = (params: Record<string, unknown>) =>
      c.request!('sampling/createMessage', params) as Promise<{ params: Record<string, unknown> }>;
    expect((await ask({ messages: [], includeContext: 'allServers', maxTokens: 50 })).params).toMatchObject({
      includeContext: 'thisServer',
      maxTokens: 50,
    });
    expect((await ask({ messages: [], includeContext: 'none' })).params).toMatchObject({
      includeContext: 'none',
      maxTokens: 1024,
    });
    expect((await ask({ messages: [], includeContext: 'bogus', maxTokens: 1e9 })).params).toMatchObject({
      includeContext: 'none',
      maxTokens: 1024,
    });
  });

  it('refuses a request too large, and questions past the count', async () => {
    const { client } = recorder();
    const c = limitRelay(client, DEFAULT_RELAY_LIMITS, 't');
    await expect(
      c.request!('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(70_000) } }],
      }),
    ).rejects.toThrow(/bytes, more than 65536/);
    for (let i = 0; i < 5; i++) await c.request!('elicitation/create', { message: 'q' });
    await expect(c.request!('elicitation/create', { message: 'q' })).rejects.toThrow(/more than 5 questions/);
  });

  it('counts log and progress together and says once that the rest is dropped', () => {
    const { client, sent } = recorder();
    const limits = structuredClone(DEFAULT_RELAY_LIMITS);
    limits.notifications = { maxCount: 3, maxBytes: 1_000 };
    const c = limitRelay(client, limits, 'noisy');
    c.log!({ level: 'info', data: 'a' });
    c.progress!({ progress: 1 });
    c.log!({ level: 'info', data: 'b' });
    c.log!({ level: 'info', data: 'c' });
    c.progress!({ progress: 2 });
    expect(sent).toHaveLength(4);
    expect(sent[3]).toMatchObject({
      level: 'warning',
      logger: 'toolbox',
      data: expect.stringMatching(/'noisy'.*dropped/),
    });
    const big = limitRelay(recorder().client, limits, 'big');
    expect(big.log!({ level: 'info', data: 'x'.repeat(2_000) })).toBeUndefined();
  });
});

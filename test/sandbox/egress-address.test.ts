// Issue 33 item 2: the egress proxy's address rules, for every spelling of a non-public address a
// client or a resolver can produce, and the host-list / grant decision (no network used: the
// resolver is injected for the name → address step).
import { describe, expect, it } from 'vitest';
import { classify, isLocalName, parseAddress } from '../../src/sandbox/egress/address.js';
import { decide, parseHostEntry, type EgressPolicy } from '../../src/sandbox/egress/policy.js';
import { SPELLINGS } from './egress-spellings.js';

describe('address classes', () => {
  it.each(SPELLINGS)('%s is %s', (host, cls) => {
    const a = parseAddress(host);
    expect(a, host).toBeDefined();
    expect(classify(a!)).toBe(cls);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '100.128.0.1',
    '172.32.0.1',
    '64:ff9b::808:808',
  ])('%s is public', (host) => {
    const a = parseAddress(host);
    expect(a).toBeDefined();
    expect(classify(a!)).toBeUndefined();
  });

  it.each(['example.com', 'localhost', '1.2.3.4.example', '0x7f.example', 'a::b::c', '256.1.1.1.1', '999.0.0.1'])(
    '%s is not an address literal',
    (host) => expect(parseAddress(host)).toBeUndefined(),
  );

  it('names that mean this host', () => {
    for (const n of ['localhost', 'LOCALHOST.', 'foo.localhost', 'ip6-localhost', 'localhost.localdomain'])
      expect(isLocalName(n), n).toBe(true);
    expect(isLocalName('localhost.example.com')).toBe(false);
  });
});

describe('decide', () => {
  const base: EgressPolicy = {
    tool: 't',
    hosts: true,
    grants: [],
    contractFile: '/p/tool_registry/t.yaml',
    project: '/p',
  };
  const resolver = (map: Record<string, string[]>) => async (n: string) => {
    if (!map[n]) throw new Error('ENOTFOUND');
    return map[n]!;
  };
  const dns = resolver({
    'api.example.com': ['93.184.216.34'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    'meta.example.com': ['169.254.169.254'],
    'v6loop.example.com': ['::1'],
    'x.github.com': ['140.82.112.3'],
    'github.com': ['140.82.112.4'],
  });

  it('refuses every spelling before any dial, naming the grant that would allow it', async () => {
    for (const [host] of SPELLINGS) {
      const d = await decide(base, host, 6379, dns);
      expect(d.ok, host).toBe(false);
      if (!d.ok) {
        expect(d.refusal.reason).toBe('address');
        expect(d.refusal.hint).toContain('grants.yaml');
        expect(d.refusal.hint).toContain('network:');
      }
    }
  });

  it('refuses a name whose addresses are not public; of a mixed answer only the public address is dialled', async () => {
    for (const n of ['meta.example.com', 'v6loop.example.com', 'localhost', 'a.localhost.']) {
      const d = await decide(base, n, 80, dns);
      expect(d.ok, n).toBe(false);
    }
    expect(await decide(base, 'rebind.example.com', 80, dns)).toMatchObject({
      ok: true,
      address: { text: '93.184.216.34' },
    });
    const ok = await decide(base, 'api.example.com', 443, dns);
    expect(ok).toMatchObject({ ok: true, address: { text: '93.184.216.34' } });
  });

  it('a host list allows its hosts only', async () => {
    const p = { ...base, hosts: ['api.example.com', '*.github.com', 'github.com:443'] };
    expect((await decide(p, 'api.example.com', 443, dns)).ok).toBe(true);
    expect((await decide(p, 'x.github.com', 443, dns)).ok).toBe(true);
    expect((await decide(p, 'github.com', 443, dns)).ok).toBe(true);
    const port = await decide(p, 'github.com', 22, dns);
    expect(port.ok).toBe(false);
    const other = await decide(p, 'evil.example.net', 443, dns);
    expect(other).toMatchObject({ ok: false, refusal: { reason: 'not_listed', host: 'evil.example.net' } });
    if (!other.ok) expect(other.refusal.hint).toContain('/p/tool_registry/t.yaml');
  });

  it('a user grant opens one loopback address and port, in any spelling, and names', async () => {
    const p = { ...base, grants: ['127.0.0.1:6379'] };
    for (const h of ['127.0.0.1', '127.1', '2130706433', '::ffff:127.0.0.1', 'localhost'])
      expect((await decide(p, h, 6379, async () => ['127.0.0.1'])).ok, h).toBe(true);
    expect((await decide(p, '127.0.0.1', 6380, dns)).ok).toBe(false);
    expect((await decide(p, '127.0.0.2', 6379, dns)).ok).toBe(false);
    expect((await decide(p, '::1', 6379, dns)).ok).toBe(false);
  });

  it('host entries parse', () => {
    expect(parseHostEntry('api.example.com')).toEqual({ host: 'api.example.com' });
    expect(parseHostEntry('db:5432')).toEqual({ host: 'db', port: 5432 });
    expect(parseHostEntry('[::1]:6379')).toEqual({ host: '::1', port: 6379 });
    expect(parseHostEntry('x:99999')).toBeUndefined();
  });
});

// Probing the tiers: the disk cache, forcing a tier, and the honesty of what each tier claims.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableTiers, describeSandboxTier, probeSandbox, runSandboxed } from '../../src/sandbox/index.js';
import { chooseTier, TIERS, type ProbeFacts } from '../../src/sandbox/probe.js';
import { buildSeccompFilter } from '../../src/sandbox/seccomp.js';
import { ToolboxError } from '../../src/errors.js';
import { expectsEveryTier, fixtureSpec, onTier } from './helpers.js';

const state = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
const userCache = mkdtempSync(join(tmpdir(), 'toolbox-xdg-'));
const prevXdg = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = userCache;
afterAll(() => {
  if (prevXdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = prevXdg;
  rmSync(state, { recursive: true, force: true });
  rmSync(userCache, { recursive: true, force: true });
});

describe('probeSandbox', () => {
  it("probes once and caches the facts in the user's own 0700 cache folder, never in the project", async () => {
    const info = await probeSandbox({ stateDir: state });
    const file = join(userCache, 'toolbox', 'sandbox.json');
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(state, 'cache', 'sandbox.json'))).toBe(false);
    expect(statSync(join(userCache, 'toolbox')).mode & 0o777).toBe(0o700);
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    expect(cached.key).toContain(`uid=${process.getuid!()}`);
    expect(cached.works[info.tier]).toBe(true);
    expect(await availableTiers()).toContain(info.tier);
    expect((await availableTiers())[0]).toBe(info.tier);
  });

  it('picks bwrap when it works, and otherwise says why it does not', async () => {
    const facts = JSON.parse(readFileSync(join(userCache, 'toolbox', 'sandbox.json'), 'utf8')) as ProbeFacts;
    const info = await probeSandbox({ stateDir: state });
    // Every tier either works or carries the reason it does not; the strongest working one is chosen.
    for (const t of TIERS) expect(facts.works[t] || Boolean(facts.reasons[t])).toBe(true);
    expect(info.tier).toBe(TIERS.find((t) => facts.works[t]));
    if (expectsEveryTier()) {
      // CI as root on Debian (.ci/run installs bubblewrap): every tier must work here.
      expect(facts.reasons).toEqual({});
      expect(facts.works).toEqual({ bwrap: true, unshare: true, none: true });
      expect(info.tier).toBe('bwrap');
    }
  });

  it('honours TOOLBOX_SANDBOX and rejects a tier that does not exist or does not work', async () => {
    expect((await onTier('none', () => probeSandbox())).tier).toBe('none');
    const err = await onTier('chroot' as never, () => probeSandbox()).catch((e) => e);
    expect(err).toBeInstanceOf(ToolboxError);
    expect([err.code, err.exitCode]).toEqual(['sandbox_unknown_tier', 3]);
    const facts: ProbeFacts = {
      key: 'k',
      tools: {},
      works: { bwrap: false, unshare: false, none: true },
      reasons: { bwrap: 'bwrap (bubblewrap) is not installed' },
    };
    expect(() => chooseTier(facts, 'bwrap')).toThrow(
      expect.objectContaining({ code: 'sandbox_unavailable', exitCode: 3 }),
    );
    expect(chooseTier(facts, undefined)).toBe('none');
  });

  it('never claims isolation a weaker tier does not have, and warns about it', async () => {
    const unshare = await describeSandboxTier('unshare');
    expect(unshare.isolates).toMatchObject({ filesystem: false, syscalls: false, network: true, processes: true });
    expect(unshare.warnings.join(' ')).toMatch(/NO filesystem confinement/);
    const none = await describeSandboxTier('none');
    expect(Object.values(none.isolates).filter((v) => v === true)).toEqual(none.isolates.resourceLimits ? [true] : []);
    expect(none.warnings.join(' ')).toMatch(/NO ISOLATION/);
    const bwrap = await describeSandboxTier('bwrap');
    expect(bwrap.isolates).toMatchObject({ filesystem: true, network: true, processes: true, syscalls: true });
  });

  it('tells the tier in force on every result', async () => {
    for (const t of await availableTiers()) {
      const r = await onTier(t, async () => runSandboxed(await fixtureSpec('env.js')));
      expect(r.tier).toBe(t);
    }
  });
});

describe('buildSeccompFilter', () => {
  it('builds whole 8-byte instructions for x64 and arm64, shorter when the network is open', () => {
    for (const arch of ['x64', 'arm64']) {
      const closed = buildSeccompFilter({ network: false, arch });
      const open = buildSeccompFilter({ network: true, arch });
      expect(closed.length % 8).toBe(0);
      expect(open.length).toBeLessThan(closed.length);
    }
    expect(() => buildSeccompFilter({ network: false, arch: 'mips' })).toThrow();
  });
});

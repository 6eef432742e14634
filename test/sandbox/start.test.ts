// Long-lived sandboxed processes (warm workers, MCP stdio servers).
import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { startSandboxed } from '../../src/sandbox/index.js';
import { fixtureSpec, marker, onTier, processesWith, testTiers } from './helpers.js';

const tiers = await testTiers();

async function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  let buf = '';
  while (!buf.includes('\n')) {
    const [chunk] = await once(stream, 'data');
    buf += String(chunk);
  }
  return buf;
}

describe.each(tiers)('tier %s', (tier) => {
  it('talks over stdin/stdout, and kill() leaves nothing behind', async () => {
    const m = marker();
    const p = await onTier(tier, async () => startSandboxed(await fixtureSpec('echo_worker.py', [m])));
    p.stdin.write('hello\n');
    expect(await readLine(p.stdout)).toBe('HELLO\n');
    p.stdin.write('again\n');
    expect(await readLine(p.stdout)).toBe('AGAIN\n');
    expect(processesWith(m).length).toBeGreaterThan(0);
    p.kill();
    const r = await p.exited;
    expect(r.exitCode === null || r.exitCode !== 0).toBe(true);
    expect(r.tier).toBe(tier);
    expect(processesWith(m)).toEqual([]);
    expect(existsSync(r.workDir)).toBe(false);
  });

  it('resolves exited when the worker ends by itself (stdin closed)', async () => {
    const p = await onTier(tier, async () => startSandboxed(await fixtureSpec('echo_worker.py')));
    p.stdout.resume();
    p.stdin.end();
    const r = await p.exited;
    expect(r.exitCode).toBe(0);
  });

  it('is killed through the abort signal', async () => {
    const m = marker();
    const ac = new AbortController();
    const p = await onTier(tier, async () =>
      startSandboxed(await fixtureSpec('echo_worker.py', [m], { signal: ac.signal })),
    );
    p.stdin.write('x\n');
    await readLine(p.stdout);
    ac.abort();
    const r = await p.exited;
    expect(r.aborted).toBe(true);
    expect(processesWith(m)).toEqual([]);
  });
});

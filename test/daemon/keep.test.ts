// The daemon's cache of kept Runtimes: bounded, least recently used out first, and never closed
// under a request that still holds it.
import { describe, expect, it } from 'vitest';
import { Keep } from '../../src/daemon/keep.js';

class Thing {
  closed = 0;
  constructor(readonly name: string) {}
  async close() {
    this.closed++;
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('Keep', () => {
  it('makes an object once per key and hands the same one out again', () => {
    const k = new Keep(2);
    let made = 0;
    const a = k.acquire('a', () => new Thing(`a${++made}`));
    const b = k.acquire('a', () => new Thing(`a${++made}`));
    expect(b.value).toBe(a.value);
    expect(made).toBe(1);
    expect(k.size).toBe(1);
  });

  it('drops the least recently used past its bound, closing it at once when nobody holds it', async () => {
    const k = new Keep(2);
    const a = k.acquire('a', () => new Thing('a'));
    a.release();
    const b = k.acquire('b', () => new Thing('b'));
    b.release();
    k.acquire('a', () => new Thing('a2')).release(); // a is now the most recent
    const c = k.acquire('c', () => new Thing('c'));
    await settle();
    expect(k.size).toBe(2);
    expect(b.value.closed).toBe(1);
    expect(a.value.closed).toBe(0);
    expect(c.value.closed).toBe(0);
  });

  it('closes an evicted object only when its last holder releases it, and only once', async () => {
    const k = new Keep(1);
    const a = k.acquire('a', () => new Thing('a'));
    k.acquire('b', () => new Thing('b'));
    await settle();
    expect(a.value.closed).toBe(0); // still in use by a request in flight
    a.release();
    a.release(); // a second release changes nothing
    await settle();
    expect(a.value.closed).toBe(1);
  });

  it('close() closes everything it keeps', async () => {
    const k = new Keep(4);
    const xs = ['a', 'b', 'c'].map((n) => k.acquire(n, () => new Thing(n)).value);
    await k.close();
    expect(xs.map((x) => x.closed)).toEqual([1, 1, 1]);
    expect(k.size).toBe(0);
  });
});

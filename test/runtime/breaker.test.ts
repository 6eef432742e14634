import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Breaker, breakerSettings } from '../../src/runtime/breaker.js';
import { ToolboxError } from '../../src/errors.js';
import { tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const p = tempProject();
  cleanup = p.cleanup;
  let now = 1_000_000;
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
  const make = () =>
    new Breaker(join(p.dir, '.toolbox'), { failures: 3, windowMs: 10_000, cooldownMs: 5_000 }, clock.now);
  return { dir: p.dir, clock, make };
}

const refused = (b: Breaker, id: string) => {
  try {
    b.check(id);
    return undefined;
  } catch (e) {
    return e as ToolboxError;
  }
};

describe('Breaker', () => {
  it('opens after N failures within the window, across instances (the file is the state)', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 2; i++) {
      make().failure('t');
      clock.advance(1000);
    }
    expect(refused(make(), 't')).toBeUndefined();
    make().failure('t');
    const e = refused(make(), 't');
    expect(e?.code).toBe('circuit_open');
    expect(e?.exitCode).toBe(4);
    expect(e?.message).toMatch(/\d{4}-\d\d-\d\dT.*\(in 5 s\)/);
    expect(e?.details).toMatchObject({ retryAfterSeconds: 5 });
    expect(make().status('t').state).toBe('open');
    expect(refused(make(), 'other')).toBeUndefined();
  });

  it('forgets failures older than the window', () => {
    const { make, clock } = setup();
    make().failure('t');
    make().failure('t');
    clock.advance(10_001);
    make().failure('t');
    expect(refused(make(), 't')).toBeUndefined();
  });

  it('lets one trial through after the cool-down; success closes, failure reopens', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(5_000);
    const b = make();
    expect(b.status('t').state).toBe('half_open');
    expect(refused(b, 't')).toBeUndefined(); // the trial
    expect(refused(make(), 't')?.code).toBe('circuit_open'); // a second caller while the trial runs
    make().failure('t'); // the trial failed: open again at once
    expect(refused(make(), 't')?.code).toBe('circuit_open');
    clock.advance(5_000);
    expect(refused(make(), 't')).toBeUndefined();
    make().success('t');
    expect(make().status('t')).toEqual({ state: 'closed', recentFailures: 0 });
    expect(refused(make(), 't')).toBeUndefined();
  });

  it('a success resets the count', () => {
    const { make } = setup();
    make().failure('t');
    make().failure('t');
    make().success('t');
    make().failure('t');
    make().failure('t');
    expect(refused(make(), 't')).toBeUndefined();
  });

  it('tolerates a corrupt state file and rewrites it whole', () => {
    const { make, dir } = setup();
    mkdirSync(join(dir, '.toolbox'), { recursive: true });
    writeFileSync(join(dir, '.toolbox', 'breaker.json'), '{"tools": {"t": [not json');
    expect(refused(make(), 't')).toBeUndefined();
    make().failure('t');
    expect(JSON.parse(readFileSync(join(dir, '.toolbox', 'breaker.json'), 'utf8')).tools.t.failures).toHaveLength(1);
  });

  it('reads its thresholds from config (seconds), with defaults', () => {
    expect(breakerSettings({})).toEqual({ failures: 5, windowMs: 60_000, cooldownMs: 30_000 });
    expect(breakerSettings({ runtime: { breaker: { failures: 2, window: 1, cooldown: 0.5 } } })).toEqual({
      failures: 2,
      windowMs: 1000,
      cooldownMs: 500,
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
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

  it('ignores non-positive or non-numeric thresholds and rounds the failure count', () => {
    expect(
      breakerSettings({ runtime: { breaker: { failures: 0, window: -1, cooldown: '5' as unknown as number } } }),
    ).toEqual({ failures: 5, windowMs: 60_000, cooldownMs: 30_000 });
    expect(breakerSettings({ runtime: { breaker: { failures: 2.6 } } }).failures).toBe(3);
  });

  it('a success on a tool it has no record of writes nothing', () => {
    const { make, dir } = setup();
    make().success('t');
    expect(existsSync(join(dir, '.toolbox', 'breaker.json'))).toBe(false);
  });

  it.each(['{"tools": null}', '{"tools": "x"}', 'null', '{"version": 1}'])(
    'treats a state file of the wrong shape (%s) as all closed',
    (content) => {
      const { make, dir } = setup();
      mkdirSync(join(dir, '.toolbox'), { recursive: true });
      writeFileSync(join(dir, '.toolbox', 'breaker.json'), content);
      expect(refused(make(), 't')).toBeUndefined();
      make().failure('t');
      expect(JSON.parse(readFileSync(join(dir, '.toolbox', 'breaker.json'), 'utf8')).tools.t.failures).toHaveLength(1);
    },
  );

  it('counts recent failures up to, not including, the window length; all() reports every tool', () => {
    const { make, clock, dir } = setup();
    make().failure('t');
    clock.advance(10_000);
    make().failure('t');
    make().failure('t');
    // The first failure is exactly one window old: forgotten, so 2 recent and still closed.
    expect(make().status('t')).toEqual({ state: 'closed', recentFailures: 2 });
    expect(refused(make(), 't')).toBeUndefined();
    make().failure('u');
    expect(make().all()).toEqual({
      t: { state: 'closed', recentFailures: 2 },
      u: { state: 'closed', recentFailures: 1 },
    });
    make().failure('t');
    // Opening clears the failure list and records when it reopens.
    expect(JSON.parse(readFileSync(join(dir, '.toolbox', 'breaker.json'), 'utf8')).tools.t).toEqual({
      failures: [],
      openUntil: 1_000_000 + 10_000 + 5_000,
    });
  });

  it('a second caller during the trial is told when the trial slot frees; a trial that outlives the cool-down frees it', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(5_000);
    expect(refused(make(), 't')).toBeUndefined(); // the trial starts at 1_005_000
    clock.advance(2_000);
    const e = refused(make(), 't');
    expect(e?.details).toEqual({ reopensAt: new Date(1_010_000).toISOString(), retryAfterSeconds: 3 });
    clock.advance(2_999);
    expect(refused(make(), 't')?.code).toBe('circuit_open');
    clock.advance(1);
    expect(refused(make(), 't')).toBeUndefined(); // the first trial never reported back: a new one
  });

  it('a failed trial reopens for a whole cool-down from the failure', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(5_000);
    expect(refused(make(), 't')).toBeUndefined();
    clock.advance(4_000);
    make().failure('t'); // at 1_009_000: open until 1_014_000
    clock.advance(2_000);
    expect(refused(make(), 't')?.details).toMatchObject({ retryAfterSeconds: 3 });
    expect(make().status('t')).toMatchObject({ state: 'open', reopensAt: new Date(1_014_000).toISOString() });
  });

  it('a failure exactly when the cool-down ends reopens at once', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(5_000);
    make().failure('t');
    expect(make().status('t')).toEqual({
      state: 'open',
      recentFailures: 0,
      reopensAt: new Date(1_010_000).toISOString(),
    });
  });

  it('status forgets failures exactly one window old, even without a new call', () => {
    const { make, clock } = setup();
    make().failure('t');
    make().failure('t');
    clock.advance(9_999);
    expect(make().status('t').recentFailures).toBe(2);
    clock.advance(1);
    expect(make().status('t').recentFailures).toBe(0);
  });

  it('a caller at the very instant the trial starts waits a whole cool-down; a failed trial clears the list', () => {
    const { make, clock, dir } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(5_000); // exactly openUntil
    expect(refused(make(), 't')).toBeUndefined();
    expect(refused(make(), 't')?.details).toEqual({
      reopensAt: new Date(1_010_000).toISOString(),
      retryAfterSeconds: 5,
    });
    make().failure('t');
    expect(JSON.parse(readFileSync(join(dir, '.toolbox', 'breaker.json'), 'utf8')).tools.t).toEqual({
      failures: [],
      openUntil: 1_010_000,
    });
  });

  it('says why it refuses (the threshold, or a running trial) and how to reset', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    const open = refused(make(), 't');
    expect(open?.message).toContain("tool 't' is temporarily refused: it failed 3 times within 10 s.");
    expect(open?.hint).toMatch(/delete \.toolbox\/breaker\.json.*runtime\.breaker in toolbox\.config\.yaml/);
    clock.advance(5_000);
    expect(refused(make(), 't')).toBeUndefined();
    expect(refused(make(), 't')?.message).toContain('a trial call after its cool-down is still running.');
  });

  it('a failure reported while the circuit is open does not extend the cool-down', () => {
    const { make, clock } = setup();
    for (let i = 0; i < 3; i++) make().failure('t');
    clock.advance(1_000);
    make().failure('t'); // a call that started before the circuit opened
    expect(make().status('t')).toEqual({
      state: 'open',
      recentFailures: 1,
      reopensAt: new Date(1_005_000).toISOString(),
    });
  });
});

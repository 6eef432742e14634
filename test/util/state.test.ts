import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendState,
  cacheOp,
  checkState,
  listState,
  readStateText,
  removeState,
  renameState,
  statePath,
  takeStateWarnings,
  writeState,
} from '../../src/util/state.js';

let root: string;
let state: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
  chmodSync(root, 0o755);
  state = join(root, '.toolbox');
  outside = mkdtempSync(join(tmpdir(), 'toolbox-state-out-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};

describe('util/state', () => {
  it('writes, appends, reads, renames, lists and removes inside a fresh .toolbox/', () => {
    expect(readStateText(state, 'breaker.json')).toBeUndefined();
    const f = writeState(state, 'results/a.txt', 'full');
    expect(f).toBe(join(state, 'results', 'a.txt'));
    expect(statSync(join(state, 'results')).mode & 0o022).toBe(0);
    appendState(state, 'calls.jsonl', 'one\n');
    appendState(state, 'calls.jsonl', 'two\n');
    expect(readStateText(state, 'calls.jsonl')).toBe('one\ntwo\n');
    renameState(state, 'calls.jsonl', 'calls.1.jsonl');
    expect(listState(state, '.').sort()).toEqual(['calls.1.jsonl', 'results']);
    removeState(state, 'results/a.txt');
    removeState(state, 'results/missing.txt');
    expect(listState(state, 'results')).toEqual([]);
    expect(listState(state, 'sessions')).toEqual([]);
  });

  it('refuses a link anywhere on the way, and the entry itself, for every operation', () => {
    mkdirSync(state);
    symlinkSync(outside, join(state, 'results'));
    writeFileSync(join(outside, 'x.json'), '{}');
    symlinkSync(join(outside, 'x.json'), join(state, 'breaker.json'));
    expect(code(() => writeState(state, 'results/a.txt', 'x'))).toBe('state_unsafe');
    expect(code(() => listState(state, 'results'))).toBe('state_unsafe');
    expect(code(() => removeState(state, 'results/x.json'))).toBe('state_unsafe');
    expect(code(() => readStateText(state, 'breaker.json'))).toBe('state_unsafe');
    expect(code(() => appendState(state, 'breaker.json', 'x'))).toBe('state_unsafe');
    expect(code(() => writeState(state, 'breaker.json', 'x'))).toBe('state_unsafe');
    expect(code(() => checkState(state, ['results/']))).toBe('state_unsafe');
    expect(readFileSync(join(outside, 'x.json'), 'utf8')).toBe('{}');
    expect(existsSync(join(outside, 'x.json'))).toBe(true);
  });

  it('refuses .toolbox/ itself as a link, a file, or writable by everyone; and a hard-linked file', () => {
    symlinkSync(outside, state);
    expect(code(() => writeState(state, 'calls.jsonl', 'x'))).toBe('state_unsafe');
    rmSync(state);
    writeFileSync(state, '');
    expect(code(() => readStateText(state, 'calls.jsonl'))).toBe('state_unsafe');
    rmSync(state);
    mkdirSync(state);
    chmodSync(state, 0o777);
    expect(code(() => appendState(state, 'calls.jsonl', 'x'))).toBe('state_unsafe');
    chmodSync(state, 0o755);
    writeFileSync(join(outside, 'rc'), 'keep');
    linkSync(join(outside, 'rc'), join(state, 'calls.jsonl'));
    expect(code(() => appendState(state, 'calls.jsonl', 'x'))).toBe('state_unsafe');
    expect(readFileSync(join(outside, 'rc'), 'utf8')).toBe('keep');
  });

  it('refuses a project folder that other users may write (they could swap .toolbox/)', () => {
    chmodSync(root, 0o777);
    expect(code(() => writeState(state, 'calls.jsonl', 'x'))).toBe('state_unsafe');
    chmodSync(root, 0o1777); // sticky: others cannot rename what is ours
    expect(code(() => writeState(state, 'calls.jsonl', 'x'))).toBe('ok');
  });

  it('a cache op on a refused entry returns the fallback and leaves one warning per command', () => {
    symlinkSync(outside, state);
    const read = () => cacheOp(() => readStateText(state, 'cache/x.json'), 'none');
    expect(read()).toBe('none');
    expect(read()).toBe('none');
    const w = takeStateWarnings();
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/\.toolbox .* is a symbolic link to .*the cache there is ignored/);
    expect(takeStateWarnings()).toEqual([]);
    expect(() => cacheOp(() => statePath(state, '../escape'), 'x')).toThrow(/bad state path/);
  });
});

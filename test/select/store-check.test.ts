// storedIndexExact: the daemon's in-process check of a stored index against every contract file
// (test/daemon/verify.test.ts runs it through a real daemon on 2,100 contracts).
import { mkdirSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openIndex, storedIndexExact } from '../../src/select/store.js';
import { tempProject } from '../helpers.js';

let p: ReturnType<typeof tempProject>;
const reg = (...parts: string[]) => join(p.dir, 'tool_registry', ...parts);
const file = (i: number) => reg(`g${i % 3}`, i % 2 ? 'deep' : '', `t${i}.yaml`);
const contract = (i: number, extra = '') =>
  `id: tool_${i}\nname: Tool ${i}\ndescription: ${extra}Look up the records number ${i} and summarise them.\n` +
  `schema: {type: object, properties: {key: {type: string}}}\nloader: command\nloader_config: {argv: [echo]}\n`;
const project = () => resolveProject({ cwd: p.dir });

beforeEach(async () => {
  p = tempProject();
  for (let i = 0; i < 12; i++) {
    mkdirSync(join(file(i), '..'), { recursive: true });
    writeFileSync(file(i), contract(i, 'Walrus. '));
  }
  await openIndex(project(), { full: true, tokens: true });
});
afterEach(() => p?.cleanup());

describe('storedIndexExact', () => {
  it('is true while no contract file changed, every time', async () => {
    expect(await storedIndexExact(project())).toBe(true);
    expect(await storedIndexExact(project())).toBe(true);
  });

  it('is false after an in-place rewrite of the same size with the mtime put back', async () => {
    const { atime, mtime } = statSync(file(7));
    writeFileSync(file(7), contract(7, 'Quokka. '));
    utimesSync(file(7), atime, mtime);
    expect(await storedIndexExact(project())).toBe(false);
  });

  it('is false when a file was added, removed, or renamed (same count)', async () => {
    writeFileSync(reg('g1', 'new.yaml'), contract(99));
    expect(await storedIndexExact(project())).toBe(false);
    unlinkSync(reg('g1', 'new.yaml'));
    expect(await storedIndexExact(project())).toBe(true);
    unlinkSync(file(4));
    expect(await storedIndexExact(project())).toBe(false);
    writeFileSync(reg('g0', 'moved.yaml'), contract(4, 'Walrus. '));
    expect(await storedIndexExact(project())).toBe(false);
  });

  it('is false without a stored index, and with estimated token counts to count', async () => {
    rmSync(join(p.dir, '.toolbox'), { recursive: true, force: true });
    expect(await storedIndexExact(project())).toBe(false);
    await openIndex(project(), { tokens: true, largeAbove: 5 }); // a large registry's first build: estimates
    expect(await storedIndexExact(project())).toBe(false);
    await openIndex(project(), { tokens: true, full: true }); // what the verifier process does
    expect(await storedIndexExact(project())).toBe(true);
  });

  it('yields to the event loop while it walks (work queued meanwhile runs before it ends)', async () => {
    let ranBefore = false;
    const check = storedIndexExact(project()).then((ok) => ({ ok, ranBefore }));
    setImmediate(() => (ranBefore = true));
    expect(await check).toEqual({ ok: true, ranBefore: true });
  });
});

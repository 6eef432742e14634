// Atomic writes (src/util/fs.ts): a reader sees the old file or the whole new one, and a failed
// or abandoned write leaves neither a partial file nor a temp file behind.
import { closeSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AtomicWriter, sweepTemps, writeFileAtomicParts } from '../../src/util/fs.js';
import { tempProject } from '../helpers.js';

let p: ReturnType<typeof tempProject>;
afterEach(() => p?.cleanup());

describe('AtomicWriter', () => {
  it('shows nothing until commit, then exactly what was written (text and bytes, past its buffer)', () => {
    p = tempProject();
    const file = join(p.dir, 'sub', 'out.txt');
    writeFileSync(join(p.dir, 'keep'), '');
    const w = new AtomicWriter(file, 8);
    const pieces = ['héllo ', Buffer.from('bytes '), 'x'.repeat(20), '天气', Buffer.alloc(0), 'end'];
    for (const piece of pieces) w.write(piece);
    expect(readdirSync(join(p.dir, 'sub')).filter((f) => f === 'out.txt')).toEqual([]);
    w.commit();
    expect(readFileSync(file, 'utf8')).toBe(`héllo bytes ${'x'.repeat(20)}天气end`);
    expect(readdirSync(join(p.dir, 'sub'))).toEqual(['out.txt']);
  });

  it('leaves the old file and no temp file when aborted', () => {
    p = tempProject({ 'out.txt': 'old' });
    const file = join(p.dir, 'out.txt');
    const w = new AtomicWriter(file, 4);
    w.write('new content that is flushed');
    w.abort();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(p.dir)).toEqual(['out.txt']);
  });

  it('removes its temp file when a write fails, and throws', () => {
    p = tempProject({ 'out.txt': 'old' });
    const file = join(p.dir, 'out.txt');
    const w = new AtomicWriter(file, 4);
    w.write('abc');
    expect(readdirSync(p.dir)).toHaveLength(2); // out.txt and the temp file
    // Close its file descriptor behind its back (no abort): the next write fails with EBADF, and
    // the writer itself must remove the temp file.
    closeSync((w as unknown as { fd: number }).fd);
    expect(() => w.write(Buffer.from('x'))).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(readdirSync(p.dir)).toEqual(['out.txt']);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('writeFileAtomicParts writes every piece, and nothing when the pieces fail', () => {
    p = tempProject({ 'out.txt': 'old' });
    const file = join(p.dir, 'out.txt');
    writeFileAtomicParts(file, ['a', Buffer.from('b'), 'c']);
    expect(readFileSync(file, 'utf8')).toBe('abc');
    function* failing() {
      yield 'partial';
      throw new Error('boom');
    }
    expect(() => writeFileAtomicParts(file, failing())).toThrow('boom');
    expect(readFileSync(file, 'utf8')).toBe('abc');
    expect(readdirSync(p.dir)).toEqual(['out.txt']);
  });
});

describe('sweepTemps', () => {
  it("removes only temp files whose writer no longer runs, never others' or anything else", () => {
    p = tempProject();
    const dead = '.registry-v1.json.999999999.0a1b2c3d.tmp'; // above any pid_max: no such process
    const mine = `.registry-v1.json.${process.pid}.0a1b2c3d.tmp`; // a write in progress in this process
    const parent = `.x.json.${process.ppid}.deadbeef.tmp`; // a running process
    const others = [
      'registry-v1.json',
      '.x.999999999.tmp',
      '.x.999999999.0A1B2C3D.tmp',
      'x.json.999999999.0a1b2c3d.tmp',
    ];
    for (const f of [dead, mine, parent, ...others]) writeFileSync(join(p.dir, f), 'x');
    mkdirSync(join(p.dir, '.d.json.999999999.0a1b2c3d.tmp')); // a folder of that name: left alone
    sweepTemps(p.dir);
    expect(readdirSync(p.dir).sort()).toEqual([mine, parent, ...others, '.d.json.999999999.0a1b2c3d.tmp'].sort());
    sweepTemps(join(p.dir, 'missing')); // no folder: nothing to do, no error
  });
});

// The daemon's pid-file lock: two daemons that start at the same moment next to a stale pid file
// (left by a SIGKILLed daemon) must never both take it. Two real processes race for it round after
// round, released together by a file barrier; every round exactly one may win.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdsLock, livePid, takeLock } from '../../src/daemon/pidlock.js';
import { REPO } from '../helpers.js';

const ROUNDS = 150;
// A pid above any pid_max: the process it names is gone, so the file is stale.
const STALE = '999999999 12345\n';

const racer = `
import { existsSync, writeFileSync } from 'node:fs';
import { takeLock } from ${JSON.stringify(join(REPO, 'dist/daemon/pidlock.js'))};
const [dir, me, rounds] = process.argv.slice(1);
const other = 1 - Number(me);
for (let r = 0; r < Number(rounds); r++) {
  writeFileSync(dir + '/ready.' + r + '.' + me, '');
  while (!existsSync(dir + '/ready.' + r + '.' + other)) {}
  let won;
  try { won = takeLock(dir + '/lock.' + r) ? 'won' : 'lost'; } catch (e) { won = 'threw ' + e.code; }
  writeFileSync(dir + '/res.' + r + '.' + me, won);
}
// A lock's holder must outlive the other's attempt: a winner that exits makes its lock stale, and the
// other may then take it (rightly). So wait for the other's last result before exiting.
while (!existsSync(dir + '/res.' + (Number(rounds) - 1) + '.' + other)) {}
`;

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'toolbox-pidlock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('pid-file lock', () => {
  it('takes a missing or stale pid file, never a live one, and leaves no temp file behind', () => {
    const dir = tempDir();
    const pid = join(dir, 'x.pid');
    expect(takeLock(pid)).toBe(true);
    expect(livePid(pid)).toBe(process.pid);
    expect(holdsLock(pid)).toBe(true);
    expect(takeLock(pid)).toBe(false); // held by a live process (this one)
    writeFileSync(pid, STALE);
    expect(livePid(pid)).toBeUndefined();
    expect(holdsLock(pid)).toBe(false);
    expect(takeLock(pid)).toBe(true);
    expect(readFileSync(pid, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\\n$`));
    expect(readdirSync(dir)).toEqual(['x.pid']);
  });

  it('two processes racing for a stale pid file: exactly one wins every round', async () => {
    const dir = tempDir();
    for (let r = 0; r < ROUNDS; r++) writeFileSync(join(dir, `lock.${r}`), STALE);
    const kids = [0, 1].map((me) =>
      spawn(process.execPath, ['--input-type=module', '-e', racer, dir, String(me), String(ROUNDS)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    let stderr = '';
    for (const k of kids) k.stderr!.on('data', (d) => (stderr += d));
    const codes = await Promise.all(kids.map(async (k) => ((await once(k, 'exit')) as [number])[0]));
    expect({ codes, stderr }).toEqual({ codes: [0, 0], stderr: '' });
    const bad: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const pair = [0, 1].map((me) => readFileSync(join(dir, `res.${r}.${me}`), 'utf8')).join('+');
      if (pair !== 'won+lost' && pair !== 'lost+won') bad.push(`round ${r}: ${pair}`);
    }
    expect(bad).toEqual([]);
  }, 60_000);
});

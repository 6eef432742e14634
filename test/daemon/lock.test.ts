// The daemon's kernel lock (an abstract Unix socket): taken once, refused while held (naming the live
// holder from the pid file), freed by release and by its holder's death, even by SIGKILL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, lockName } from '../../src/daemon/lock.js';
import { REPO } from '../helpers.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'toolbox-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.runIf(process.platform === 'linux')('daemon kernel lock', () => {
  it('is taken once; a second taker gets the holder pid; release frees it and removes the pid file', async () => {
    const pid = join(tempDir(), 'p.pid');
    writeFileSync(pid, '999999999 12345\n'); // stale: overwritten by the holder
    const a = await acquireLock(pid);
    expect(a).toMatchObject({ kind: 'kernel' });
    expect(readFileSync(pid, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\\n$`));
    expect(await acquireLock(pid)).toEqual({ pid: process.pid });
    if (!('kind' in a)) throw new Error('not taken');
    expect(a.held()).toBe(true);
    a.release();
    expect(existsSync(pid)).toBe(false);
    const b = await acquireLock(pid);
    expect(b).toMatchObject({ kind: 'kernel' });
    if ('kind' in b) b.release();
  });

  it('a holder killed by SIGKILL frees it at once; its stale pid file does not count', async () => {
    const pid = join(tempDir(), 'k.pid');
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { acquireLock } from ${JSON.stringify(join(REPO, 'dist/daemon/lock.js'))};
         const l = await acquireLock(process.argv[1]);
         process.stdout.write(l.kind ? 'held\\n' : 'refused\\n');
         setInterval(() => {}, 1000);`,
        pid,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(holder.stdout!, 'data')) as [Buffer];
    expect(String(line)).toBe('held\n');
    expect(await acquireLock(pid, 0)).toEqual({ pid: holder.pid });
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    expect(existsSync(pid)).toBe(true); // left behind, as by any killed daemon
    const l = await acquireLock(pid);
    expect(l).toMatchObject({ kind: 'kernel' });
    if ('kind' in l) l.release();
  });

  it('a name held by something that writes no pid file is refused without a pid', async () => {
    const pid = join(tempDir(), 's.pid');
    const { createServer } = await import('node:net');
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(lockName(pid), r));
    try {
      expect(await acquireLock(pid, 50)).toEqual({ pid: undefined });
      expect(existsSync(pid)).toBe(false);
    } finally {
      squatter.close();
    }
  });
});

// Issue 34 item 5: a state URL's password never shows, whatever characters it holds. A real Redis
// with `requirepass` set to a password holding `/`, `#`, `?`, `@` and `%`; the CLI is given the URL
// raw (which may not parse), percent-encoded (which connects), password-only, user-only and rediss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, testConfigEnv } from '../helpers.js';
import { scaleProject } from '../scale/project.js';
import { expected } from './cases.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { startRedis } from '../../deploy/local-cluster.mjs';

const SECRET = 'Zq9/Secret#Part?x@y%z';
const MARK = 'Secret'; // the middle of the password: no form of it may show
type Redis = { port: number; child: import('node:child_process').ChildProcess; exited: Promise<unknown> };
let redis: Redis;
const proj = scaleProject();
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() };

beforeAll(async () => {
  redis = (await startRedis(undefined, { password: SECRET })) as Redis;
}, 60_000);
afterAll(async () => {
  redis.child.kill('SIGKILL');
  await redis.exited;
  proj.cleanup();
});

describe('a Redis password with / # ? @ % never shows', () => {
  it('in state_url_invalid, warnings, --verbose, --json and doctor, for every form of the URL', async () => {
    expect(expected('state-password-special-chars', 'bwrap')).toBe('blocked');
    const at = `127.0.0.1:${redis.port}`;
    const enc = encodeURIComponent(SECRET);
    const urls = [
      `redis://app:${SECRET}@${at}/0`, // raw: does not parse
      `redis://:${SECRET}@${at}/0`,
      `redis://${SECRET}@${at}/0`, // user-only (a token)
      `rediss://app:${SECRET}@${at}/0`,
      `redis://app:${SECRET}@${at}/zz`,
      `redis:/app:${SECRET}@${at}`,
      `redis://:${enc}@${at}/0`, // encoded: connects and authenticates
      `redis://default:${enc}@${at}/0`,
      `redis://:${enc}x@${at}/0`, // encoded but wrong: the server refuses
      `redis://${enc}@${at}/0`,
    ];
    let invalid = 0;
    for (const url of urls)
      for (const argv of [
        ['run', 'echo_text', '--text', 'x', '--state', url, '--verbose'],
        ['stats', '--state', url, '--json'],
        ['doctor', '--state', url, '--json'],
      ]) {
        const r = await cli([...argv, '--registry', proj.registry], { cwd: proj.dir, env });
        const all = r.stdout + r.stderr;
        expect(all, `${argv[0]} ${url}`).not.toContain(MARK);
        expect(all, `${argv[0]} ${url}`).not.toContain(enc.slice(4, 14));
        if (r.errorJson?.error?.code === 'state_url_invalid') invalid++;
      }
    expect(invalid).toBeGreaterThanOrEqual(12); // the raw forms really took the error path
    // The encoded form is a working URL: the state is reached with that password.
    const ok = await cli(['stats', '--state', `redis://:${enc}@${at}/0`, '--json', '--registry', proj.registry], {
      cwd: proj.dir,
      env,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.stringify(ok.json)).not.toMatch(/unreachable|cannot read the shared state/);
  });
});

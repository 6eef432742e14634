// `toolbox run` on a real terminal (a pseudo-terminal): a tool's elicitation questions are asked with
// prompts and answered by the person; a sampling request is refused with a clear error.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, linkNodeModules, tempProject, testConfigEnv } from '../helpers.js';

const proj = tempProject();
cpSync(join(REPO, 'test', 'fixtures', 'conformance'), proj.dir, { recursive: true });
linkNodeModules(proj.dir);
afterAll(() => proj.cleanup());

function drive(args: string[], steps: [string, string][]): { code: number; screen: string } {
  const log = join(proj.dir, `pty-${Date.now()}.log`);
  const out = execFileSync(
    'python3',
    [join(import.meta.dirname, 'pty-driver.py'), JSON.stringify(steps), process.execPath, BIN, 'run', ...args],
    {
      cwd: proj.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', PTY_LOG: log, ...testConfigEnv() },
      timeout: 60_000,
    },
  );
  // eslint-disable-next-line no-control-regex
  const screen = readFileSync(log, 'utf8').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  return { code: Number(out.trim().split('\n').pop()), screen };
}

describe('toolbox run on a terminal', () => {
  it("asks the tool's elicitation questions and gives the answers to the tool", () => {
    const r = drive(
      ['test_elicitation', '--message', 'Who are you?'],
      [
        ["User's response", 'ann\r'],
        ["User's email address", 'ann@example.com\r'],
      ],
    );
    expect(r.code).toBe(0);
    expect(r.screen).toContain('Who are you?');
    expect(r.screen).toContain('User response: action=accept, content={"username": "ann", "email": "ann@example.com"}');
  });

  it('refuses sampling with a clear error (exit 4)', () => {
    const r = drive(['test_sampling', '--prompt', 'hi'], []);
    expect(r.code).toBe(4);
    expect(r.screen).toMatch(/cannot answer sampling\/createMessage: there is no LLM on this side/);
  });
});

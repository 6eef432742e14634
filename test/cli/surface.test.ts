// The CLI surface through the real binary (bin/toolbox.js → dist/): help tables, usage errors, the
// internal-error exit, Ctrl+C, a closed pipe, the --version fast path and `show`.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, copyFileSync, cpSync, mkdirSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli.js';
import { EXIT_MEANINGS, ExitCode } from '../../src/errors.js';
import { memoryIO } from '../../src/io.js';
import { BIN, REPO, spawnCli, tempProject } from '../helpers.js';
import { marker, processesWith } from '../sandbox/helpers.js';
import { commandPaths, helpExitTable } from './exit-table.js';

const mark = marker();
const project = tempProject({
  'tool_registry/nap.yaml': `id: nap
name: Nap
description: Sleeps for half a minute so that a caller can interrupt it. Use when testing cancellation.
schema: { type: object, properties: {} }
loader: command
loader_config:
  argv: [sh, -c, "sleep 30", ${mark}]
`,
});
cpSync(join(REPO, 'tool_registry'), join(project.dir, 'tool_registry'), { recursive: true });
const cwd = realpathSync(project.dir);
afterAll(() => project.cleanup());
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe('the real binary', () => {
  it("every command's --help exits 0 and ends with the exit-code table of src/errors.ts", async () => {
    const paths = commandPaths(buildProgram(memoryIO({ cwd }), () => {}));
    const results = await Promise.all(paths.map((p) => spawnCli([...p, '--help'], { cwd })));
    for (const [i, r] of results.entries()) {
      expect({ cmd: paths[i], code: r.code }).toEqual({ cmd: paths[i], code: 0 });
      expect(helpExitTable(r.stdout)).toEqual(Object.fromEntries(Object.entries(EXIT_MEANINGS)));
    }
  });

  it('unknown command or option: exit 2 (one JSON error under --json)', async () => {
    expect((await spawnCli(['bogus'], { cwd })).code).toBe(2);
    const r = await spawnCli(['list', '--bogus', '--json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.code).toBe('usage');
  });

  it('an internal error exits 70 (test hook)', async () => {
    const r = await spawnCli(['list', '--json'], { cwd, env: { TOOLBOX_TEST_INTERNAL_ERROR: '1' } });
    expect(r.code).toBe(ExitCode.internal);
    expect(JSON.parse(r.stderr).error.code).toBe('internal_error');
  });

  it('Ctrl+C during a tool call exits 130 and leaves no tool process behind', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'nap', '--json'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Interrupt once the tool's own process is running.
    for (let i = 0; i < 300 && processesWith(mark).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(mark).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(ExitCode.cancelled);
    expect(JSON.parse(stderr.trim().split('\n').pop()!).error.code).toBeTypeOf('string');
    expect(processesWith(mark)).toEqual([]);
  });

  it('a reader that goes away (EPIPE) is not an error: exit 0, no stack', async () => {
    const child = spawn(process.execPath, [BIN, 'list'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });

  it('a write that fails for another reason (a full disk: /dev/full) exits 74 with one message, no stack', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const env = { PATH: process.env.PATH, HOME: process.env.HOME };
      const runTo = (args: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((res) => {
          const c = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', full, 'pipe'] });
          let stderr = '';
          c.stderr.on('data', (d) => (stderr += d));
          c.on('close', (code) => res({ code, stderr }));
        });
      const human = await runTo(['list']);
      expect(human.code).toBe(ExitCode.output);
      expect(human.stderr).toContain('error: cannot write the output to stdout (ENOSPC)\nhint: ');
      expect(human.stderr).not.toMatch(/\n\s+at /);
      for (const args of [
        ['list', '--json'],
        ['select', 'nap', '--json'],
        ['show', 'nap', '--json'],
      ]) {
        const r = await runTo(args);
        expect(r.code, args.join(' ')).toBe(ExitCode.output);
        expect(JSON.parse(r.stderr).error.code, args.join(' ')).toBe('output_failed');
      }
      const version = await runTo(['--version']);
      expect(version).toEqual({ code: ExitCode.output, stderr: 'error: cannot write the output to stdout (ENOSPC)\n' });
    } finally {
      closeSync(full);
    }
  });

  it('--version answers from package.json without loading dist/ (works with only bin/ and package.json)', async () => {
    const bare = tempProject();
    try {
      mkdirSync(join(bare.dir, 'bin'));
      copyFileSync(BIN, join(bare.dir, 'bin', 'toolbox.js'));
      // bin/package.json makes the launcher CommonJS (the --version fast path needs no ES module).
      copyFileSync(join(REPO, 'bin', 'package.json'), join(bare.dir, 'bin', 'package.json'));
      copyFileSync(join(REPO, 'package.json'), join(bare.dir, 'package.json'));
      for (const flag of ['--version', '-V']) {
        const r = await new Promise<{ code: number | null; out: string }>((res) => {
          const c = spawn(process.execPath, [join(bare.dir, 'bin', 'toolbox.js'), flag], { cwd });
          let out = '';
          c.stdout.on('data', (d) => (out += d));
          c.on('close', (code) => res({ code, out }));
        });
        expect(r).toEqual({ code: 0, out: `${version}\n` });
      }
      expect((await spawnCli(['--version'], { cwd })).stdout).toBe(`${version}\n`);
    } finally {
      bare.cleanup();
    }
  });

  it('show prints the contract (human and --json)', async () => {
    const human = await spawnCli(['show', 'calculator'], { cwd, env: { NO_COLOR: '1' } });
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toContain(join(cwd, 'tool_registry', 'calculator.yaml'));
    expect(human.stdout).toMatch(/^id: calculator$/m);
    expect(human.stdout).toMatch(/^loader: /m);
    const json = await spawnCli(['show', 'calculator', '--json'], { cwd });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'calculator', contract: { id: 'calculator' } });
    expect((await spawnCli(['show', 'nope'], { cwd })).code).toBe(2);
  });
});

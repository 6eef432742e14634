import { mkdtempSync, mkdirSync, realpathSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { run } from '../src/main.js';
import { memoryIO } from '../src/io.js';

export const REPO = resolve(import.meta.dirname, '..');
export const BIN = join(REPO, 'bin', 'toolbox.js');

/** Run the CLI in process. Returns exit code, stdout, stderr (and parsed JSON when --json). */
export async function cli(argv: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string }) {
  const io = memoryIO({
    cwd: opts.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    stdin: opts.stdin,
  });
  const code = await run(argv, io);
  const stdout = io.out();
  const stderr = io.err();
  const parse = (s: string) => {
    try {
      return JSON.parse(s);
    } catch {
      return undefined;
    }
  };
  return { code, stdout, stderr, json: parse(stdout), errorJson: parse(stderr.trim().split('\n').pop() ?? '') };
}

/** Spawn the real binary (needs `npm run build`). */
export function spawnCli(
  argv: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeout?: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = execFile(
      process.execPath,
      [BIN, ...argv],
      {
        cwd: opts.cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...testConfigEnv(), ...opts.env },
        timeout: opts.timeout ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        res({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** A temp project folder with the given files (path -> content). Call cleanup() in afterEach. */
export function tempProject(files: Record<string, string | Uint8Array> = {}): {
  dir: string;
  write(p: string, c: string | Uint8Array): string;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-test-'));
  const write = (p: string, c: string | Uint8Array) => {
    const abs = join(dir, p);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, c);
    return abs;
  };
  for (const [p, c] of Object.entries(files)) write(p, c);
  return { dir, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The code REFERENCE_CONTRACT calls (validate checks that the module defines the function). */
export const REFERENCE_CODE = {
  'my_tools/__init__.py': '',
  'my_tools/weather.py': 'def get_weather_by_city(city):\n    return {"summary": city + ": sunny"}\n',
};

/** The reference design's contract, verbatim. */
export const REFERENCE_CONTRACT = `id: query_weather
name: 查询天气
description: 根据城市名称查询当前天气情况和未来短期预报。
schema:
  type: object
  properties:
    city:
      type: string
      description: 城市名称，例如“北京”、“上海”。
  required: [city]
provider: weather_service
loader: python_function
loader_config:
  module: my_tools.weather
  function: get_weather_by_city
`;

let testConfig: string | undefined;
const testGrants: Record<string, Record<string, { paths?: string[]; env?: string[]; network?: string[] }>> = {};

/**
 * This test process's own config folder (XDG_CONFIG_HOME, with `toolbox/` made 0700): grants written
 * by the tests go there, never into the user's ~/.config/toolbox. Removed when the process exits.
 */
export function testConfigHome(): string {
  if (!testConfig) {
    const dir = mkdtempSync(join(tmpdir(), 'toolbox-test-config-'));
    mkdirSync(join(dir, 'toolbox'), { mode: 0o700 });
    testConfig = dir;
    process.env.XDG_CONFIG_HOME = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return testConfig;
}

/** XDG_CONFIG_HOME for a spawned toolbox, once this process has a test config folder. */
export function testConfigEnv(): NodeJS.ProcessEnv {
  return testConfig ? { XDG_CONFIG_HOME: testConfig } : {};
}

/** Grant `what` to `tool` (default every tool, `"*"`) of the project at `dir`, as a user would in grants.yaml. */
export function grantInTests(
  dir: string,
  what: { paths?: string[]; env?: string[]; network?: string[] },
  tool = '*',
): void {
  const home = testConfigHome();
  const key = realpathSync(dir);
  const cur = (testGrants[key] ??= {});
  const had = cur[tool] ?? {};
  cur[tool] = {
    paths: [...(had.paths ?? []), ...(what.paths ?? [])],
    env: [...(had.env ?? []), ...(what.env ?? [])],
    network: [...(had.network ?? []), ...(what.network ?? [])],
  };
  // JSON is YAML.
  writeFileSync(join(home, 'toolbox', 'grants.yaml'), JSON.stringify({ projects: testGrants }, null, 1), {
    mode: 0o600,
  });
}

/** Write (or, with undefined, remove) this test process's own ~/.config/toolbox/config.yaml. */
export function userConfigInTests(text: string | undefined): void {
  const file = join(testConfigHome(), 'toolbox', 'config.yaml');
  if (text === undefined) rmSync(file, { force: true });
  else writeFileSync(file, text, { mode: 0o600 });
}

/**
 * Link the repository's node_modules into a test project. A link out of the project is refused
 * unless the user grants its target (docs/sandbox.md), so the test grants it, as a user would.
 */
export function linkNodeModules(dir: string): void {
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  grantInTests(dir, { paths: [realpathSync(join(REPO, 'node_modules'))] });
}

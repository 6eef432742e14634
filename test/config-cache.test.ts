// A validated config is remembered by its exact text in the user's cache folder, so `select` and
// `run` load no YAML parser for an unchanged config; any change of the text validates it again.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { ToolboxError } from '../src/errors.js';
import { REFERENCE_CONTRACT, REPO, tempProject } from './helpers.js';

const CONFIG = 'registry: tool_registry\nruntime:\n  timeout: 30s\npermissions:\n  default_role: assistant\n';

let p: ReturnType<typeof tempProject>;
let saved: string | undefined;
beforeEach(() => {
  p = tempProject({ 'toolbox.config.yaml': CONFIG, 'tool_registry/w.yaml': REFERENCE_CONTRACT, 'cache/.keep': '' });
  saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(p.dir, 'cache');
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  p.cleanup();
});

const entries = () => readdirSync(join(p.dir, 'cache', 'toolbox', 'config'));

function thrown(fn: () => unknown): ToolboxError {
  try {
    fn();
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('expected an error');
}

// A fresh process (dist/, built by npm test), so the module cache shows whether yaml was needed.
const probe = () =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         const { resolveProject } = await import(${JSON.stringify(`${REPO}/dist/config.js`)});
         const p = resolveProject({ cwd: ${JSON.stringify(p.dir)} });
         const yaml = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/yaml/'));
         console.log(JSON.stringify({ role: p.config.permissions.default_role, yaml }));`,
      ],
      { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: join(p.dir, 'cache') } },
    ),
  ) as { role: string; yaml: boolean };

describe('the config cache', () => {
  it('answers an unchanged config without loading yaml, and parses an edited one again', () => {
    expect(probe()).toEqual({ role: 'assistant', yaml: true });
    expect(entries()).toHaveLength(1);
    expect(statSync(join(p.dir, 'cache', 'toolbox', 'config', entries()[0]!)).mode & 0o077).toBe(0);
    expect(probe()).toEqual({ role: 'assistant', yaml: false });
    p.write('toolbox.config.yaml', CONFIG.replace('assistant', 'reviewer'));
    expect(probe()).toEqual({ role: 'reviewer', yaml: true });
    expect(entries()).toHaveLength(1); // one entry per config file, replaced
  });

  it("keeps one entry per build of the code: the CLI bundle does not evict the daemon's (dist/) entry", () => {
    expect(probe()).toEqual({ role: 'assistant', yaml: true }); // dist/config.js, as the daemon runs it
    const cli = execFileSync(process.execPath, [join(REPO, 'bin', 'toolbox.js'), 'select', 'weather', '--json'], {
      cwd: p.dir,
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: join(p.dir, 'cache'), TOOLBOX_DAEMON: 'off' },
    });
    expect(JSON.parse(cli)).toBeTruthy();
    expect(entries()).toHaveLength(2);
    expect(probe()).toEqual({ role: 'assistant', yaml: false });
  });

  it('validates again an edit that keeps the size and the modification time', () => {
    const file = join(p.dir, 'toolbox.config.yaml');
    expect(loadConfig(file).runtime?.timeout).toBe('30s');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, CONFIG.replace('timeout: 30s', 'timeout: 3Os')); // same length, invalid
    utimesSync(file, atime, mtime);
    const e = thrown(() => loadConfig(file));
    expect(e.code).toBe('config_invalid');
    expect(e.exitCode).toBe(3);
  });

  it('uses an entry only for the same file, text and toolbox build', () => {
    const file = join(p.dir, 'toolbox.config.yaml');
    loadConfig(file);
    const entry = join(p.dir, 'cache', 'toolbox', 'config', entries()[0]!);
    const stored = JSON.parse(readFileSync(entry, 'utf8')) as { file: string; code: string; text: string };
    const admin = { permissions: { default_role: 'admin' } };
    // Another text, another toolbox build, another file: each is validated again (and replaced).
    for (const planted of [
      { ...stored, text: stored.text + '\n', config: admin },
      { ...stored, code: 'other', config: admin },
      { ...stored, file: '/elsewhere/toolbox.config.yaml', config: admin },
    ]) {
      writeFileSync(entry, JSON.stringify(planted));
      expect(loadConfig(file).permissions?.default_role).toBe('assistant');
      expect(JSON.parse(readFileSync(entry, 'utf8'))).toEqual({ ...stored, config: expect.anything() });
    }
    writeFileSync(entry, JSON.stringify({ ...stored, config: admin }));
    expect(loadConfig(file).permissions?.default_role).toBe('admin'); // the entry is what is used
    writeFileSync(entry, '{ not json');
    expect(loadConfig(file).permissions?.default_role).toBe('assistant');
  });

  it('keeps at most 64 entries, dropping the oldest', () => {
    for (let i = 0; i < 70; i++) loadConfig(p.write(`p${i}/toolbox.config.yaml`, CONFIG));
    expect(entries()).toHaveLength(64);
  });

  it('never remembers a config that JSON cannot keep exactly', () => {
    // Rule options are free-form: YAML's .inf is accepted, and JSON would bring it back as null.
    const file = p.write('other/toolbox.config.yaml', 'lint:\n  options:\n    some-rule: { max: .inf }\n');
    expect(loadConfig(file).lint?.options?.['some-rule']?.max).toBe(Infinity);
    expect(loadConfig(file).lint?.options?.['some-rule']?.max).toBe(Infinity);
    expect(() => entries()).toThrow(/ENOENT/);
  });
});

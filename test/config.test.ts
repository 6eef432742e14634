import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, resolveProject } from '../src/config.js';
import type { ToolboxError } from '../src/errors.js';
import { REPO, cli, tempProject } from './helpers.js';
import { projectUserOnlyKeys } from '../src/policy/user-settings.js';

const TOOL =
  'id: echo_tool\nname: Echo\ndescription: Echoes a fixed word, for configuration tests only.\nschema: { type: object }\nloader: command\nloader_config: { argv: [echo, hi] }\n';

let p: ReturnType<typeof tempProject> | undefined;
afterEach(() => {
  p?.cleanup();
  p = undefined;
});

function project(config: string) {
  p = tempProject({ 'toolbox.config.yaml': config, 'tool_registry/echo.yaml': TOOL });
  return p;
}

function thrown(fn: () => unknown): ToolboxError {
  try {
    fn();
  } catch (e) {
    return e as ToolboxError;
  }
  throw new Error('expected an error');
}

/** The first ```yaml block of README's "Configuration" section. */
function readmeConfig(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const m = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('no yaml block in the README Configuration section');
  return m[1]!;
}

describe('toolbox.config.yaml validation', () => {
  it('accepts the full example config from the README', async () => {
    const text = readmeConfig();
    const pr = project(text);
    const proj = resolveProject({ cwd: pr.dir });
    // Other people edit the README: check that every section is there, not its exact values.
    expect(Object.keys(proj.config).sort()).toEqual([
      'lint',
      'locked',
      'permissions',
      'registry',
      'runtime',
      'select',
      'telemetry',
    ]);
    // The project's example sets nothing only you may set (README: the table under it).
    expect(projectUserOnlyKeys(proj)).toEqual([]);
    for (const roles of Object.values(proj.config.permissions?.tools ?? {})) expect(Array.isArray(roles)).toBe(true);
    const r = await cli(['list', '--json'], { cwd: pr.dir });
    expect(r.code).toBe(0);
  });

  it("accepts the repository's own toolbox.config.yaml and the init template", () => {
    expect(loadConfig(join(REPO, 'toolbox.config.yaml')).permissions?.default_role).toBe('assistant');
    const template = readFileSync(join(REPO, 'templates', 'toolbox.config.yaml'), 'utf8').replace(
      '%%registry%%',
      '"tool_registry"',
    );
    const pr = project(template);
    expect(resolveProject({ cwd: pr.dir }).config.registry).toBe('tool_registry');
  });

  it('accepts other valid forms: numeric and unit timeouts, empty sections, weight 0', () => {
    for (const t of ['30', '1.5', '500ms', '2m', '"45s"']) {
      const pr = project(`runtime:\n  timeout: ${t}\n`);
      expect(() => resolveProject({ cwd: pr.dir })).not.toThrow();
      pr.cleanup();
    }
    const pr = project(
      'runtime:\nselect:\n  top: 3\n  embeddings: { url: "https://emb.example.com/v1", weight: 0 }\nuser: alice\nrole: admin\n',
    );
    const c = resolveProject({ cwd: pr.dir }).config;
    expect(c.runtime).toBeUndefined();
    expect(c.select?.embeddings?.weight).toBe(0);
  });

  const BAD: { name: string; config: string; line: number; column: number; message: RegExp }[] = [
    {
      name: 'a string where a role list belongs (would fail open as roles a,d,m,i,n)',
      config: 'permissions:\n  tools:\n    calculator: admin\n',
      line: 3,
      column: 5,
      message: /permissions\.tools\.calculator: expected a list of role names, got the string "admin"/,
    },
    {
      name: 'a negative select.top',
      config: 'select:\n  top: -5\n',
      line: 2,
      column: 3,
      message: /select\.top: expected a positive integer, got the number -5/,
    },
    {
      name: 'a fractional select.top',
      config: 'select:\n  top: 2.5\n',
      line: 2,
      column: 3,
      message: /select\.top: expected a positive integer/,
    },
    {
      name: 'a word as runtime.cache_size (and as timeout)',
      config: 'runtime:\n  cache_size: "lots"\n  timeout: forever\n',
      line: 2,
      column: 3,
      message:
        /runtime\.cache_size: expected a positive integer, got the string "lots"\n.*toolbox\.config\.yaml:3:3: runtime\.timeout: expected a positive number of seconds or a duration/,
    },
    {
      name: 'a zero timeout',
      config: 'runtime:\n  timeout: 0\n',
      line: 2,
      column: 3,
      message: /runtime\.timeout: .*got the number 0/,
    },
    {
      name: 'an unknown severity',
      config: 'lint:\n  rules:\n    description-vague: fatal\n',
      line: 3,
      column: 5,
      message: /lint\.rules\.description-vague: expected one of error, warning, info, off, got the string "fatal"/,
    },
    {
      name: 'a boolean severity',
      config: 'lint:\n  rules: { description-vague: true }\n',
      line: 2,
      column: 12,
      message: /got the boolean true/,
    },
    {
      name: 'lint options that are not a mapping',
      config: 'lint:\n  options:\n    description-too-short: 30\n',
      line: 3,
      column: 5,
      message: /lint\.options\.description-too-short: expected a mapping, got the number 30/,
    },
    {
      name: 'a misspelt nested key',
      config: 'runtime:\n  timout: 30s\n',
      line: 2,
      column: 3,
      message: /unknown key 'timout' in runtime\. Did you mean 'timeout'\?/,
    },
    {
      name: 'a misspelt deep key',
      config: 'runtime:\n  breaker:\n    failurs: 3\n',
      line: 3,
      column: 5,
      message: /unknown key 'failurs' in runtime\.breaker\. Did you mean 'failures'\?/,
    },
    {
      name: 'a misspelt top-level key',
      config: 'registry: tool_registry\nregisty: x\n',
      line: 2,
      column: 1,
      message: /unknown key 'registy'\. Did you mean 'registry'\?/,
    },
    {
      name: 'breaker failures that are not an integer',
      config: 'runtime:\n  breaker: { failures: 1.5 }\n',
      line: 2,
      column: 14,
      message: /runtime\.breaker\.failures: expected a positive integer, got the number 1\.5/,
    },
    {
      name: 'a negative breaker cooldown',
      config: 'runtime:\n  breaker:\n    cooldown: -1\n',
      line: 3,
      column: 5,
      message: /runtime\.breaker\.cooldown: expected a positive number of seconds/,
    },
    {
      name: 'embeddings without url',
      config: 'select:\n  embeddings: { model: bge-m3 }\n',
      line: 2,
      column: 3,
      message: /select\.embeddings: missing required key 'url'/,
    },
    {
      name: 'a non-http embeddings url',
      config: 'select:\n  embeddings:\n    url: ftp://x/y\n',
      line: 3,
      column: 5,
      message: /select\.embeddings\.url: expected an http:\/\/ or https:\/\/ URL, got the string "ftp:\/\/x\/y"/,
    },
    {
      name: 'a bad api_key_env',
      config: 'select:\n  embeddings:\n    url: http://h/v1\n    api_key_env: my key\n',
      line: 4,
      column: 5,
      message: /api_key_env: expected the name of an environment variable/,
    },
    {
      name: 'a negative embeddings weight',
      config: 'select:\n  embeddings:\n    url: http://h/v1\n    weight: -1\n',
      line: 4,
      column: 5,
      message: /weight: expected a number ≥ 0/,
    },
    {
      name: 'a user whose roles are a string',
      config: 'permissions:\n  users:\n    alice: admin\n',
      line: 3,
      column: 5,
      message: /permissions\.users\.alice: expected a list of role names/,
    },
    {
      name: 'a role that is not a string',
      config: 'permissions:\n  users:\n    alice: [admin, 7]\n',
      line: 3,
      column: 20,
      message: /permissions\.users\.alice\[1\]: expected a role name, got the number 7/,
    },
    {
      name: 'a list as default_role',
      config: 'permissions:\n  default_role: [admin]\n',
      line: 2,
      column: 3,
      message: /permissions\.default_role: expected a role name, got a list of 1/,
    },
    {
      name: 'a section that is a scalar',
      config: 'runtime: fast\n',
      line: 1,
      column: 1,
      message:
        /runtime: expected a mapping with keys cache_size, pool_size, timeout, breaker, max_result_tokens, got the string "fast"/,
    },
    {
      name: 'an empty registry',
      config: 'registry: ""\n',
      line: 1,
      column: 1,
      message: /registry: expected a folder path/,
    },
  ];

  for (const c of BAD) {
    it(`rejects ${c.name} with exit 3 at ${c.line}:${c.column}`, async () => {
      const pr = project(c.config);
      const file = join(pr.dir, 'toolbox.config.yaml');
      const e = thrown(() => resolveProject({ cwd: pr.dir }));
      expect(e.code).toBe('config_invalid');
      expect(e.exitCode).toBe(3);
      expect(e.location).toEqual({ file, line: c.line, column: c.column });
      expect(e.message.startsWith(`${file}:${c.line}:${c.column}: `)).toBe(true);
      expect(e.message).toMatch(c.message);
      expect(e.hint).toBeTruthy();

      const r = await cli(['list', '--json'], { cwd: pr.dir });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.errorJson.error).toMatchObject({
        code: 'config_invalid',
        location: { file, line: c.line, column: c.column },
      });
      const human = await cli(['list'], { cwd: pr.dir });
      expect(human.code).toBe(3);
      expect(human.stderr).toContain(`error: ${file}:${c.line}:${c.column}: `);
    });
  }

  it('hints at the list form for a lone role string', () => {
    const pr = project('permissions:\n  tools:\n    calculator: admin\n');
    expect(thrown(() => resolveProject({ cwd: pr.dir })).hint).toContain('calculator: [admin]');
  });

  it('lists every problem, each with its own position', () => {
    const pr = project('select:\n  top: 0\nruntime:\n  cache_size: -1\n  breaker: { window: x }\nroles: admin\n');
    const e = thrown(() => resolveProject({ cwd: pr.dir }));
    const lines = e.message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => /:(\d+:\d+): /.exec(l)![1])).toEqual(['2:3', '4:3', '5:14', '6:1']);
    expect(lines[3]).toContain("Did you mean 'role'?");
    expect((e.details as { problems: unknown[] }).problems).toHaveLength(4);
  });
});

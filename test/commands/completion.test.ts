// The generated scripts, run by the real shell: bash completes commands, flags, flag values and
// the registry's tool ids (fetched from `toolbox completion --ids` at completion time).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, REPO, cli, tempProject } from '../helpers.js';

const p = tempProject();
afterAll(() => p.cleanup());
// A copy of the shipped registry: completion reads (and caches) the registry, never in the repository.
const proj = tempProject();
afterAll(() => proj.cleanup());
cpSync(join(REPO, 'tool_registry'), join(proj.dir, 'tool_registry'), { recursive: true });
// `toolbox` on PATH, as after an install.
const shim = p.write('bin/toolbox', `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(shim, 0o755);

async function script(shell: string): Promise<string> {
  const r = await cli(['completion', shell], { cwd: REPO });
  expect(r.code).toBe(0);
  return r.stdout;
}

/** What bash offers for the command line `words` (the last word is the one being completed). */
function complete(src: string, words: string[]): string[] {
  const file = p.write('completion.bash', src);
  const cmd = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _toolbox_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['-c', cmd], {
    cwd: proj.dir,
    encoding: 'utf8',
    env: { PATH: `${join(p.dir, 'bin')}:${process.env.PATH}`, HOME: process.env.HOME },
  });
  return out.split('\n').filter(Boolean).sort();
}

describe('toolbox completion', () => {
  it('bash: commands, flags, flag values and tool ids', async () => {
    const src = await script('bash');
    expect(complete(src, ['toolbox', 'va'])).toEqual(['validate']);
    expect(complete(src, ['toolbox', 'co'])).toEqual(['completion']);
    expect(complete(src, ['toolbox', 'validate', '--f'])).toEqual(['--fail-on', '--format']);
    expect(complete(src, ['toolbox', 'validate', '--format', 's'])).toEqual(['sarif']);
    expect(complete(src, ['toolbox', 'new', 'x', '--loader', 'no'])).toEqual(['node_module']);
    expect(complete(src, ['toolbox', 'run', 'calc'])).toEqual(['calculator']);
    expect(complete(src, ['toolbox', 'show', 'base'])).toEqual(['base64_encode']);
    expect(complete(src, ['toolbox', 'run', 'calculator', '--time'])).toEqual(['--timeout']);
    expect(complete(src, ['toolbox', 'select', 'x', '--js'])).toEqual(['--json']);
    // A tool's own flags after `run ID` (issue 38 item 4), and each global flag once.
    expect(complete(src, ['toolbox', 'run', 'query_weather', '--ci'])).toEqual(['--city']);
    expect(complete(src, ['toolbox', 'run', 'calculator', '--ex'])).toEqual(['--expression']);
    const all = complete(src, ['toolbox', 'run', 'calculator', '--']);
    expect(all).toContain('--expression');
    expect(all.filter((f) => f === '--json')).toEqual(['--json']);
    expect(new Set(all).size).toBe(all.length);
  });

  it("--flags ID prints the tool's own flags; nothing (exit 0) for an unknown id", async () => {
    const r = await cli(['completion', '--flags', 'query_weather'], { cwd: proj.dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toContain('--city');
    const none = await cli(['completion', '--flags', 'no_such_tool'], { cwd: proj.dir });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
  });

  it('zsh and fish scripts name the commands and the id source; a bad shell is a usage error', async () => {
    const zsh = await script('zsh');
    expect(zsh).toContain('bashcompinit');
    expect(zsh).toContain('complete -o default -F _toolbox_complete toolbox agent-toolbox');
    const fish = await script('fish');
    expect(fish).toContain("complete -c toolbox -n '__fish_seen_subcommand_from show run deps'");
    expect(fish).toContain("-l format -x -a 'human json github sarif'");
    expect(fish).toContain('completion --flags (commandline -opc)[3]');
    const bad = await cli(['completion', 'powershell', '--json'], { cwd: REPO });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('invalid_shell');
  });

  it('--ids prints nothing (exit 0) where there is no registry', async () => {
    const r = await cli(['completion', '--ids'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

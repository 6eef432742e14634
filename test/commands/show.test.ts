import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';
import { memoryIO } from '../../src/io.js';
import { run } from '../../src/main.js';
import { contract } from '../deps/fixtures.js';

let p: ReturnType<typeof tempProject>;
afterEach(() => p.cleanup());

describe('toolbox show', () => {
  it('shows a contract with its file; unknown ids get did-you-mean', async () => {
    p = tempProject({
      'tool_registry/a.yaml': contract('count_words', 'loader: command\nloader_config: { argv: [wc] }'),
    });
    const r = await cli(['show', 'count_words', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.contract.id).toBe('count_words');
    const u = await cli(['show', 'count_word', '--json'], { cwd: p.dir });
    expect(u.code).toBe(2);
    expect(u.errorJson.error.code).toBe('unknown_tool');
  });

  it('names a broken contract as broken (exit 3), exactly as run does', async () => {
    p = tempProject({ 'tool_registry/bad.yaml': 'id: bad_tool\nname: Bad\nloader: nope\n' });
    const show = await cli(['show', 'bad_tool', '--json'], { cwd: p.dir });
    const run = await cli(['run', 'bad_tool', '--json'], { cwd: p.dir });
    expect(show.code).toBe(3);
    expect(show.errorJson.error.code).toBe('tool_contract_invalid');
    expect(run.code).toBe(show.code);
    expect(run.errorJson.error.code).toBe(show.errorJson.error.code);
  });

  // The code frame holds the contract's own lines: a person at a terminal sees it, a log or a program
  // reading stderr (an agent running `toolbox run`) gets the place and the rule only (issue 34 item 1).
  it('a contract with an indentation slip: run and validate say "indentation" once, with a code frame on a terminal only', async () => {
    p = tempProject({
      'tool_registry/slip.yaml':
        'id: slip_tool\nname: Slip\ndescription: Counts words.\nschema:\n  type: object\n   properties: {}\nloader: command\nloader_config: { argv: [wc] }\n',
    });
    const piped = await cli(['run', 'slip_tool'], { cwd: p.dir });
    expect(piped.code).toBe(3);
    expect(piped.stderr).toContain('slip.yaml:6:4: yaml-syntax');
    expect(piped.stderr).not.toContain('properties: {}');
    const tty = memoryIO({ cwd: p.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME }, tty: true });
    expect(await run(['run', 'slip_tool', '--no-color'], tty)).toBe(3);
    expect(tty.err().match(/indentation/g)).toHaveLength(1);
    expect(tty.err()).toContain('slip.yaml:6:4: yaml-syntax');
    expect(tty.err()).toContain('> 6 |    properties: {}');
    const v = await cli(['validate', '--no-routing'], { cwd: p.dir });
    expect(v.code).toBe(1);
    expect(v.stdout.match(/yaml-syntax/g)).toHaveLength(1);
    expect(v.stdout).toMatch(/6:4 +error +bad indentation: 'properties' on line 6 is indented 3 spaces/);
    expect(v.stdout).not.toContain('> 6 |');
    const vt = memoryIO({ cwd: p.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME }, tty: true });
    expect(await run(['validate', '--no-routing', '--no-color'], vt)).toBe(1);
    expect(vt.out()).toMatch(/> 6 \| {4}properties: \{\}\n +\| +\^/);
  });
});

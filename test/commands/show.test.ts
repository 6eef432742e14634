import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';
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

  it('a contract with an indentation slip: run and validate say "indentation" once, with a code frame', async () => {
    p = tempProject({
      'tool_registry/slip.yaml':
        'id: slip_tool\nname: Slip\ndescription: Counts words.\nschema:\n  type: object\n   properties: {}\nloader: command\nloader_config: { argv: [wc] }\n',
    });
    const run = await cli(['run', 'slip_tool'], { cwd: p.dir });
    expect(run.code).toBe(3);
    expect(run.stderr.match(/indentation/g)).toHaveLength(1);
    expect(run.stderr).toContain('slip.yaml:6:4: bad indentation');
    expect(run.stderr).toContain('> 6 |    properties: {}');
    const v = await cli(['validate', '--no-routing'], { cwd: p.dir });
    expect(v.code).toBe(1);
    expect(v.stdout.match(/yaml-syntax/g)).toHaveLength(1);
    expect(v.stdout).toMatch(/6:4 +error +bad indentation: 'properties' on line 6 is indented 3 spaces/);
    expect(v.stdout).toMatch(/> 6 \| {4}properties: \{\}\n +\| +\^/);
  });
});

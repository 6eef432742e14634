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
});

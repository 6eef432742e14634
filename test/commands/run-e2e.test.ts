// The thin end-to-end layer: the real binary, real stdin, real exit statuses (needs `npm run build`).
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers.js';
import { pyTool, runProject } from '../fixtures/tools/r_project.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const S =
  'schema:\n  type: object\n  properties:\n    city: { type: string }\n    unit: { type: string, enum: [c, f] }\n  required: [city]\n';

describe('toolbox run (real binary)', () => {
  it('reads JSON arguments from a piped stdin and prints the formatted result', async () => {
    const p = runProject({ w: pyTool('w', 'weather_like', S, 'format: "{{city}} {{temp}}"\n') });
    cleanup = p.cleanup;
    const r = await spawnCli(['run', 'w'], { cwd: p.dir, input: '{"city": "上海", "unit": "f"}' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('上海 70\n');
  });

  it('exits 2 on bad arguments and 4 on a tool error, with one JSON error document under --json', async () => {
    const p = runProject({
      w: pyTool('w', 'weather_like', S),
      boom: pyTool('boom', 'boom', 'schema:\n  type: object\n'),
    });
    cleanup = p.cleanup;
    const bad = await spawnCli(['run', 'w', '--unit', 'k', '--json'], { cwd: p.dir });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr).error.code).toBe('invalid_argument');
    const boom = await spawnCli(['--json', 'run', 'boom'], { cwd: p.dir });
    expect(boom.code).toBe(4);
    expect(JSON.parse(boom.stderr).error).toMatchObject({ code: 'tool_failed' });
  });
});

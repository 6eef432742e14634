import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';
import { contract } from '../deps/fixtures.js';

// The tool's module leaves a marker (where the sandbox lets it) and then fails on import, so any
// execution of tool code shows: as the marker, or as a tool failure (exit 4) instead of exit 6.
const TOOL_CODE = (marker: string) => `
import os
for d in (${JSON.stringify(marker)}, os.environ.get("TMPDIR", "/tmp")):
    try:
        open(os.path.join(d, "TOOL_CODE_RAN"), "w").write("ran")
    except OSError:
        pass
raise RuntimeError("tool code ran")
`;

describe('toolbox run with missing dependencies', () => {
  let p: ReturnType<typeof tempProject>;
  beforeEach(() => {
    p = tempProject();
    p.write('deptools/__init__.py', '');
    p.write('deptools/m.py', TOOL_CODE(p.dir));
  });
  afterEach(() => p.cleanup());

  const loader = 'loader: python_function\nloader_config: { module: deptools.m, function: run }';

  it('exits 6 with missing_dependencies before any tool code runs', async () => {
    p.write(
      'tool_registry/a.yaml',
      contract(
        'needs_pkg',
        loader,
        'requires: { python: ["no_such_package_for_toolbox_tests>=1"], bins: [no_such_program_for_toolbox] }',
      ),
    );
    const r = await cli(['run', 'needs_pkg', '--json'], { cwd: p.dir });
    expect(r.code).toBe(6);
    expect(r.errorJson.error.code).toBe('missing_dependencies');
    expect(r.errorJson.error.hint).toContain('pip install');
    expect(existsSync(join(p.dir, 'TOOL_CODE_RAN'))).toBe(false);
    // Same message as `toolbox deps` gives for the tool.
    const d = await cli(['deps', 'needs_pkg'], { cwd: p.dir });
    expect(d.code).toBe(1);
    expect(d.stdout).toContain(r.errorJson.error.message.replace(/^tool '[^']*' is /, ''));
  });

  it('runs the tool code when its dependencies are there (the control)', async () => {
    p.write('tool_registry/a.yaml', contract('has_pkg', loader, 'requires: { python: ["pip>=1"] }'));
    const r = await cli(['run', 'has_pkg', '--json'], { cwd: p.dir });
    expect(r.code).toBe(4);
    expect(JSON.stringify(r.errorJson)).toContain('tool code ran');
  });
});

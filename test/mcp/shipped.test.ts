// The mcp tools shipped in tool_registry/ work offline through `toolbox run`, from any cwd.
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, cli } from '../helpers.js';

const registry = join(REPO, 'tool_registry');

describe('shipped mcp tools (server-filesystem from node_modules/.bin)', () => {
  it('mcp_read_project_file reads a file of the project, relative to its root', async () => {
    const r = await cli(
      ['--registry', registry, 'run', 'mcp_read_project_file', '--path', 'package.json', '--head', '3', '--json'],
      { cwd: tmpdir() },
    );
    expect(r.code).toBe(0);
    expect(r.json.text).toContain('"name": "toolbox"');
  });

  it('mcp_list_project_files lists a folder and cannot leave the project', async () => {
    const r = await cli(
      ['--registry', registry, 'run', 'mcp_list_project_files', '--path', 'tool_registry', '--json'],
      { cwd: tmpdir() },
    );
    expect(r.code).toBe(0);
    expect(r.json.text).toContain('mcp_list_project_files.yaml');
    const out = await cli(['--registry', registry, 'run', 'mcp_list_project_files', '--path', '/etc', '--json'], {
      cwd: tmpdir(),
    });
    expect(out.code).toBe(4);
  });
});

// The mcp tools shipped in tool_registry/ work offline through `toolbox run`, from any cwd.
// They run on a temp copy of the shipped registry: the call log and breaker state land there, never in the repository.
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, cli, linkNodeModules, tempProject } from '../helpers.js';

const project = tempProject({ 'package.json': '{\n  "name": "toolbox",\n  "private": true\n}\n' });
cpSync(join(REPO, 'tool_registry'), join(project.dir, 'tool_registry'), { recursive: true });
linkNodeModules(project.dir);
const registry = join(project.dir, 'tool_registry');
afterAll(() => project.cleanup());

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

  it('keeps the call log in the copy it ran on', () => {
    expect(existsSync(join(project.dir, '.toolbox', 'calls.jsonl'))).toBe(true);
  });
});

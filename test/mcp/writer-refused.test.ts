// An imported MCP tool that writes (annotations.readOnlyHint: false) cannot work in the sandbox,
// which shows its stdio server every host path read-only (issue 38): the call says the sandbox
// refused and why (exit 7), not "failed: ENOENT". Real server-filesystem under the real sandbox.
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/index.js';
import { cli, linkNodeModules, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const tool = (id: string, name: string, readOnly: boolean) => `id: ${id}
name: ${id}
description: ${id} through an MCP filesystem server on the data folder.
schema:
  type: object
  properties:
    path: { type: string, description: a path }
  required: [path]
loader: mcp
loader_config:
  command: node_modules/.bin/mcp-server-filesystem
  args: ["\${PROJECT_ROOT}/data"]
  tool: ${name}
annotations: { readOnlyHint: ${readOnly}, destructiveHint: false }
sandbox:
  paths: [data]
`;

describe('an MCP tool that writes, under a tier that confines files', () => {
  it('create_directory in the bound folder and outside it: read_only_path, exit 7, saying why', async () => {
    const p = tempProject({
      'data/hello.txt': 'hi\n',
      'tool_registry/fs_create_directory.yaml': tool('fs_create_directory', 'create_directory', false),
      'tool_registry/fs_read_text_file.yaml': tool('fs_read_text_file', 'read_text_file', true),
    });
    cleanup = p.cleanup;
    linkNodeModules(p.dir);
    const confined = (await probeSandbox()).tier === 'bwrap'; // the tier that confines files
    for (const path of [`${p.dir}/data/newdir`, `${p.dir}/newdir`]) {
      const r = await cli(['run', 'fs_create_directory', '--path', path, '--json'], { cwd: p.dir });
      if (!confined) continue;
      expect(r.code).toBe(7);
      expect(r.errorJson.error.code).toBe('read_only_path');
      expect(r.errorJson.error.message).toMatch(/^the sandbox refused: MCP tool 'fs_create_directory' writes files/);
      expect(r.errorJson.error.hint).toContain('toolbox import mcp --url');
    }
    // a reading tool's missing file is just missing: not blamed on the sandbox
    const read = await cli(['run', 'fs_read_text_file', '--path', `${p.dir}/data/absent.txt`, '--json'], {
      cwd: p.dir,
    });
    expect(read.code).toBe(4);
    expect(read.errorJson.error.code).toBe('tool_failed');
  }, 120_000);
});

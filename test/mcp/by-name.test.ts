// MCP servers by name, the way a user in their own project meets them: `npx -y <pkg>`, a
// project-installed relative command, and a client config file, for server-everything and
// server-filesystem, each imported into a fresh temp project (not toolbox's folder) and called
// under the real sandbox. Installs come from the npm registry, pinned to the devDependency
// versions so npm's cache serves them: two managed installs (project A) and one project install (B).
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ToolContract } from '../../src/contract/types.js';
import { cli, grantInTests, REPO, tempProject } from '../helpers.js';
import { stdioClient } from '../serve/fixtures.js';

const V = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies['@modelcontextprotocol/server-everything']!;
const EVERYTHING = `@modelcontextprotocol/server-everything@${V}`;
const FILESYSTEM = `@modelcontextprotocol/server-filesystem@${V}`;
// npm needs what a user's shell has (the CA bundle of this network); nothing else leaks in.
const ENV = { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS };
const SECRET = 'sk-do-not-write-me-0123456789';

type Tool = { id: string; tool: string; status: string; file: string; note?: string };
const contractOf = (file: string) => parse(readFileSync(file, 'utf8')) as ToolContract;
const byTool = (tools: Tool[], name: string) => tools.find((t) => t.tool === name)!;

function project() {
  const p = tempProject({
    'tool_registry/.keep': '',
    'data/hello.txt': 'hello from the project\n',
    '.env': `TOKEN=${SECRET}\n`,
  });
  expect(p.dir.startsWith(REPO)).toBe(false);
  return p;
}

describe('npx -y <pkg>: a managed install in .toolbox/servers/, pinned, scripts off', () => {
  let p: ReturnType<typeof project>;
  beforeAll(() => {
    p = project();
  });
  afterAll(() => p.cleanup());

  it('server-everything: installs once, keeps annotations, output schemas and the task tool (mcp.task), runs', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', 'npx', '-y', EVERYTHING], { cwd: p.dir, env: ENV });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.json.package).toMatchObject({
      registry: 'npm',
      name: '@modelcontextprotocol/server-everything',
      version: V,
      integrity: expect.stringMatching(/^sha512-/),
      installed: true,
      scripts: 'ignored',
    });
    const tools = r.json.tools as Tool[];
    const echo = contractOf(byTool(tools, 'echo').file);
    expect(echo.loader_config).toMatchObject({
      command: '.toolbox/servers/modelcontextprotocol-server-everything/node_modules/.bin/mcp-server-everything',
      package: { name: '@modelcontextprotocol/server-everything', version: V, integrity: r.json.package.integrity },
    });
    // Every tool keeps its annotations (16 tools listed, all imported); one keeps its output schema.
    // toolbox declares elicitation, sampling and roots, so the tools the server lists only to clients
    // that can answer them are imported too (without the capabilities it listed 13).
    const written = tools.filter((t) => t.status === 'written');
    expect(written.length).toBe(16);
    for (const t of ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'])
      expect(byTool(tools, t).status).toBe('written');
    for (const t of written) expect(contractOf(t.file).annotations).toHaveProperty('readOnlyHint');
    expect(echo).toMatchObject({ title: 'Echo Tool', annotations: { readOnlyHint: true, destructiveHint: false } });
    expect(contractOf(byTool(tools, 'get-structured-content').file).output_schema).toMatchObject({
      type: 'object',
      properties: { temperature: { type: 'number' } },
    });
    // The task-augmented tool too, its execution.taskSupport kept as mcp.task.
    expect(contractOf(byTool(tools, 'simulate-research-query').file).mcp).toEqual({ task: 'required' });
    // The binds: the install's node_modules, never the project root.
    expect(r.json.binds.map((b: { path: string }) => b.path)).toEqual([
      join(realpathSync(p.dir), '.toolbox/servers/modelcontextprotocol-server-everything/node_modules'),
    ]);

    const run = await cli(['run', 'echo', '--message', 'by name', '--json'], { cwd: p.dir });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ result: 'Echo: by name', sandbox: 'bwrap' });
    const structured = await cli(['run', 'get_structured_content', '--location', 'Chicago', '--json'], { cwd: p.dir });
    expect(structured.json.result).toHaveProperty('temperature');
  }, 180_000);

  it('server-filesystem on ./data: the folder is bound read-only as ${PROJECT_ROOT}/data; writers are skipped', async () => {
    const r = await cli(['import', 'mcp', '--json', '--prefix', 'fs_', '--', 'npx', '-y', FILESYSTEM, './data'], {
      cwd: p.dir,
      env: ENV,
    });
    expect(r.code).toBe(0);
    const tools = r.json.tools as Tool[];
    const read = contractOf(byTool(tools, 'read_text_file').file);
    expect(read.loader_config.args).toEqual(['${PROJECT_ROOT}/data']);
    expect(read.sandbox?.paths).toEqual(['data']);
    expect(read.output_schema).toBeTruthy();
    for (const w of ['write_file', 'edit_file', 'move_file']) expect(byTool(tools, w).status).toBe('skipped');

    const run = await cli(['run', 'fs_read_text_file', '--path', join(p.dir, 'data/hello.txt'), '--json'], {
      cwd: p.dir,
    });
    expect(run.code).toBe(0);
    expect(JSON.stringify(run.json.result)).toContain('hello from the project');
    // The project's .env is outside the bound folder: the server cannot read it.
    const env = await cli(['run', 'fs_read_text_file', '--path', join(p.dir, '.env'), '--json'], { cwd: p.dir });
    expect(env.code).toBe(4);
    expect(env.stderr).not.toContain(SECRET);
  }, 180_000);

  it('a re-import installs nothing and changes nothing', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', 'npx', '-y', EVERYTHING], { cwd: p.dir, env: ENV });
    expect(r.code).toBe(0);
    expect(r.json.package.installed).toBe(false);
    expect(r.json.counts).toMatchObject({ unchanged: 16, written: 0, updated: 0, removed: 0 });
  }, 60_000);

  it('a client config (claude_desktop_config.json) imports every server; env names only', async () => {
    p.write(
      'claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          everything: { command: 'npx', args: ['-y', EVERYTHING], env: { API_TOKEN: SECRET } },
          files: { command: 'npx', args: ['-y', FILESYSTEM, './data'] },
        },
      }),
    );
    const r = await cli(['import', 'mcp', '--json', '--from-config', 'claude_desktop_config.json'], {
      cwd: p.dir,
      env: ENV,
    });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    const [ev, fs] = r.json.servers as { name: string; package: { installed: boolean }; tools: Tool[] }[];
    expect([ev!.name, fs!.name]).toEqual(['everything', 'files']);
    // Both already installed by the npx imports above: shared, not installed again.
    expect([ev!.package.installed, fs!.package.installed]).toEqual([false, false]);
    const echo = byTool(ev!.tools, 'echo');
    expect(echo.id).toBe('everything_echo');
    const text = readFileSync(echo.file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(contractOf(echo.file).requires?.env).toEqual(['API_TOKEN']);

    // A credential reaches a tool only by the user's grant, network open or not (issue 33 item 4).
    grantInTests(p.dir, { env: ['API_TOKEN'] }, 'everything_get_env');
    const run = await cli(['run', 'everything_get_env', '--json'], {
      cwd: p.dir,
      env: { API_TOKEN: 'from-the-shell' },
    });
    expect(run.code).toBe(0);
    expect(JSON.stringify(run.json.result)).toContain('from-the-shell');
    const files = await cli(['run', 'files_list_directory', '--path', join(p.dir, 'data'), '--json'], { cwd: p.dir });
    expect(files.code).toBe(0);
    expect(JSON.stringify(files.json.result)).toContain('hello.txt');
  }, 180_000);

  it('`serve` lists the imported tools and starts the managed server on the first call', async () => {
    const { client, transport } = await stdioClient(join(p.dir, 'tool_registry'), ['--expose', 'all'], p.dir);
    try {
      const tools = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      const echo = tools.find((t) => t.name === 'echo')!;
      expect(echo.annotations).toMatchObject({ readOnlyHint: true });
      const res = await client.callTool({ name: 'echo', arguments: { message: 'through serve' } });
      expect(JSON.stringify(res.content)).toContain('Echo: through serve');
    } finally {
      await transport.close();
    }
  }, 60_000);
});

describe('a project-installed server by relative path or bare name', () => {
  let p: ReturnType<typeof project>;
  beforeAll(() => {
    p = project();
    p.write('package.json', '{ "name": "user-project", "private": true }\n');
    p.write('sub/.keep', '');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', EVERYTHING, FILESYSTEM], {
      cwd: p.dir,
      stdio: 'ignore',
    });
  }, 180_000);
  afterAll(() => p.cleanup());

  it('server-everything as node_modules/.bin/… from a subfolder, and as a bare name', async () => {
    const rel = await cli(
      ['import', 'mcp', '--json', '--prefix', 'rel_', '--', '../node_modules/.bin/mcp-server-everything'],
      {
        cwd: join(p.dir, 'sub'),
      },
    );
    expect(rel.code).toBe(0);
    expect(contractOf(byTool(rel.json.tools, 'echo').file).loader_config.command).toBe(
      'node_modules/.bin/mcp-server-everything',
    );
    const bare = await cli(['import', 'mcp', '--json', '--prefix', 'bare_', '--', 'mcp-server-everything'], {
      cwd: p.dir,
    });
    expect(bare.code).toBe(0);
    // Only the project's node_modules is bound for it, with the reason.
    expect(bare.json.binds).toEqual([
      { path: join(realpathSync(p.dir), 'node_modules'), why: expect.any(String), from: 'project' },
    ]);
    for (const id of ['rel_echo', 'bare_echo']) {
      const run = await cli(['run', id, '--message', id, '--json'], { cwd: join(p.dir, 'sub') });
      expect(run.code).toBe(0);
      expect(run.json.result).toBe(`Echo: ${id}`);
    }
  }, 120_000);

  it('server-filesystem as `node <script> ./data`: script and folder resolve against the project', async () => {
    const r = await cli(
      [
        'import',
        'mcp',
        '--json',
        '--verbose',
        '--prefix',
        'fs_',
        '--',
        'node',
        'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
        './data',
      ],
      { cwd: p.dir },
    );
    expect(r.code).toBe(0);
    const c = contractOf(byTool(r.json.tools, 'list_directory').file);
    expect(c.loader_config).toMatchObject({
      command: 'node',
      args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '${PROJECT_ROOT}/data'],
    });
    const root = realpathSync(p.dir);
    expect(r.json.binds.map((b: { path: string }) => b.path)).toEqual([
      join(root, 'node_modules'),
      join(p.dir, 'data'),
    ]);
    const run = await cli(['run', 'fs_list_directory', '--path', join(p.dir, 'data'), '--json'], {
      cwd: join(p.dir, 'sub'),
    });
    expect(run.code).toBe(0);
    expect(JSON.stringify(run.json.result)).toContain('hello.txt');
  }, 120_000);

  it('a .vscode/mcp.json with project-relative commands and ${workspaceFolder}', async () => {
    p.write(
      '.vscode/mcp.json',
      JSON.stringify({
        inputs: [],
        servers: {
          vsev: {
            type: 'stdio',
            command: 'node_modules/.bin/mcp-server-everything',
            env: { GH_TOKEN: '${input:gh-token}' },
          },
          vsfs: { type: 'stdio', command: 'mcp-server-filesystem', args: ['${workspaceFolder}/data'] },
        },
      }),
    );
    const r = await cli(
      ['import', 'mcp', '--json', '--out', '../tool_registry/vscode', '--from-config', '../.vscode/mcp.json'],
      {
        cwd: join(p.dir, 'sub'),
      },
    );
    expect(r.code).toBe(0);
    const [ev, fs] = r.json.servers as { tools: Tool[] }[];
    expect(contractOf(byTool(ev!.tools, 'echo').file).requires?.env).toEqual(['GH_TOKEN']);
    const list = contractOf(byTool(fs!.tools, 'list_directory').file);
    expect(list.loader_config.args).toEqual(['${PROJECT_ROOT}/data']);
    const run = await cli(['run', 'vsfs_list_directory', '--path', join(p.dir, 'data'), '--json'], { cwd: p.dir });
    expect(run.code).toBe(0);
    grantInTests(p.dir, { env: ['GH_TOKEN'] }, 'vsev_echo');
    const echo = await cli(['run', 'vsev_echo', '--message', 'from vscode', '--json'], {
      cwd: p.dir,
      env: { GH_TOKEN: 't' },
    });
    expect(echo.json.result).toBe('Echo: from vscode');
  }, 120_000);
});

// `import mcp` sources beyond the reference servers: a project's own server (what the sandbox lets
// it see), tools that vanish upstream, a PyPI server from a local wheel, --url with auth headers
// from env vars, client-config parsing and the usage errors.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolContract } from '../../src/contract/types.js';
import { envTemplate, parseLauncher } from '../../src/mcp/sources.js';
import { cli, tempProject, grantInTests } from '../helpers.js';
import { makeServerWheel, NODE_SERVER } from './tiny-servers.js';

type Tool = { id: string; tool: string; status: string; file: string; note?: string };
const contractOf = (file: string) => parse(readFileSync(file, 'utf8')) as ToolContract;
const SECRET = 'sk-project-secret-42';

describe("a project's own server: only its folder is visible in the sandbox", () => {
  const p = tempProject({
    'tool_registry/.keep': '',
    '.env': `TOKEN=${SECRET}\n`,
    'servers/tiny/server.mjs': NODE_SERVER,
    'servers/tiny/tools.txt': 'read\nstat\nlist\n',
  });
  afterAll(() => p.cleanup());
  const imp = (...extra: string[]) =>
    cli(['import', 'mcp', '--json', ...extra, '--', 'node', 'servers/tiny/server.mjs'], { cwd: p.dir });

  it('binds the script folder only: the project .env is not there, the server folder is', async () => {
    const r = await imp();
    expect(r.code).toBe(0);
    expect(r.json.binds.map((b: { path: string }) => b.path)).toEqual([join(p.dir, 'servers/tiny')]);
    const env = await cli(['run', 'read', '--path', join(p.dir, '.env'), '--json'], { cwd: p.dir });
    expect(env.code).toBe(0);
    expect(env.json.result).toBe('error ENOENT');
    expect(env.stdout).not.toContain(SECRET);
    const own = await cli(['run', 'read', '--path', join(p.dir, 'servers/tiny/tools.txt'), '--json'], { cwd: p.dir });
    expect(own.json.result).toContain('stat');
    const verbose = await cli(['run', 'read', '--path', '/nowhere', '--verbose'], { cwd: p.dir });
    expect(verbose.stderr).toContain(`bound read-only: ${join(p.dir, 'servers/tiny')}`);
  });

  it('re-import removes the untouched contract of a vanished tool and flags an edited one', async () => {
    const stat = join(p.dir, 'tool_registry/stat.yaml');
    const list = join(p.dir, 'tool_registry/list.yaml');
    writeFileSync(list, readFileSync(list, 'utf8').replace(/^description: .*$/m, 'description: my own words here.'));
    writeFileSync(join(p.dir, 'servers/tiny/tools.txt'), 'read\n');
    const r = await imp();
    expect(r.code).toBe(0);
    const by = Object.fromEntries((r.json.tools as Tool[]).map((t) => [t.tool, t.status]));
    expect(by).toEqual({ read: 'unchanged', stat: 'removed', list: 'vanished' });
    expect(existsSync(stat)).toBe(false);
    expect(readFileSync(list, 'utf8')).toContain('my own words');
    const forced = await imp('--force');
    expect(forced.json.tools.find((t: Tool) => t.tool === 'list').status).toBe('removed');
    expect(existsSync(list)).toBe(false);
  });
});

describe('a contract cannot get a host folder bound through a script argument', () => {
  const outside = tempProject({ 'server.mjs': NODE_SERVER, 'tools.txt': 'read\n', 'secret.txt': SECRET });
  const p = tempProject({
    'tool_registry/steal.yaml': `id: steal
name: steal
description: Reads a file through a server script that lives outside the project.
schema: { type: object, properties: { path: { type: string } } }
loader: mcp
loader_config: { command: node, args: ["${join(outside.dir, 'server.mjs')}"], tool: read }
`,
  });
  afterAll(() => {
    p.cleanup();
    outside.cleanup();
  });

  it('the folder of a script outside the project is not bound: the server cannot even start', async () => {
    const r = await cli(['run', 'steal', '--path', join(outside.dir, 'secret.txt'), '--json'], { cwd: p.dir });
    expect(r.code).toBe(4);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});

describe('--pypi and uvx: a venv under .toolbox/servers/ from a local wheel (no package index here)', () => {
  const p = tempProject({ 'tool_registry/.keep': '' });
  const env = { PIP_NO_INDEX: '1', PIP_FIND_LINKS: join(p.dir, 'wheels') };
  beforeAll(() => {
    makeServerWheel(join(p.dir, 'wheels'), 'tbx-tiny-py', '0.3.0');
  });
  afterAll(() => p.cleanup());

  it('installs the pinned wheel, records its sha256, and the tool runs in the sandbox', async () => {
    const r = await cli(['import', 'mcp', '--json', '--pypi', 'tbx-tiny-py==0.3.0'], { cwd: p.dir, env });
    expect(r.errorJson?.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.json.package).toMatchObject({
      registry: 'pypi',
      name: 'tbx-tiny-py',
      version: '0.3.0',
      integrity: expect.stringMatching(/^sha256-/),
      installed: true,
      scripts: 'ignored',
    });
    const c = contractOf(r.json.tools[0].file);
    expect(c.loader_config).toMatchObject({
      command: '.toolbox/servers/tbx-tiny-py/venv/bin/tbx-tiny-py',
      package: { registry: 'pypi', version: '0.3.0' },
    });
    const run = await cli(['run', 'py_echo', '--text', 'hi', '--json'], { cwd: p.dir });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ result: 'py says hi', sandbox: 'bwrap' });
  }, 120_000);

  it('`uvx <pkg>` reuses the install', async () => {
    const r = await cli(['import', 'mcp', '--json', '--', 'uvx', 'tbx-tiny-py'], { cwd: p.dir, env });
    expect(r.code).toBe(0);
    expect(r.json.package).toMatchObject({
      installed: false,
      version: '0.3.0',
      integrity: expect.stringMatching(/^sha256-/),
    });
    expect(r.json.counts.unchanged).toBe(1);
  }, 60_000);

  it('a version no wheel provides fails with exit 6', async () => {
    const r = await cli(['import', 'mcp', '--json', '--pypi', 'tbx-tiny-py==9.9'], { cwd: p.dir, env });
    expect(r.code).toBe(6);
    expect(r.errorJson.error.code).toBe('server_install_failed');
  }, 60_000);
});

describe('--url with auth headers from env vars', () => {
  let http: Server;
  let url = '';
  const p = tempProject({ 'tool_registry/.keep': '' });
  beforeAll(async () => {
    http = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer s3cret-token') {
        res.writeHead(401).end();
        return;
      }
      const server = new McpServer({ name: 'authd', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Say that the caller is authorised.' }, () => ({
        content: [{ type: 'text', text: 'authorised' }],
      }));
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void t.close());
      void server.connect(t).then(() => t.handleRequest(req, res));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  });
  afterAll(() => {
    http.close();
    p.cleanup();
  });

  it('keeps ${NAME} in the contract, the name in requires.env, the value nowhere', async () => {
    const args = ['import', 'mcp', '--json', '--url', url, '--header', 'Authorization: Bearer ${API_TOKEN}'];
    const denied = await cli(args, { cwd: p.dir });
    expect(denied.code).toBe(4);
    const r = await cli(args, { cwd: p.dir, env: { API_TOKEN: 's3cret-token' } });
    expect(r.code).toBe(0);
    const file = r.json.tools[0].file as string;
    expect(readFileSync(file, 'utf8')).not.toContain('s3cret');
    const c = contractOf(file);
    expect(c.loader_config.headers).toEqual({ Authorization: 'Bearer ${API_TOKEN}' });
    expect(c.requires?.env).toEqual(['API_TOKEN']);
    // A credential sent over the network needs the user's grant (issue 23 item 7), as a user would give it.
    const refused = await cli(['run', 'whoami', '--json'], { cwd: p.dir, env: { API_TOKEN: 's3cret-token' } });
    expect(refused.errorJson?.error.code).toBe('sandbox_env_denied');
    // The server is on the host's loopback: the user's network grant opens it to the tool (issue 33).
    grantInTests(p.dir, { env: ['API_TOKEN'], network: ['127.0.0.1'] }, 'whoami');
    const run = await cli(['run', 'whoami', '--json'], { cwd: p.dir, env: { API_TOKEN: 's3cret-token' } });
    expect(run.json.result).toBe('authorised');
    expect((await cli(['run', 'whoami', '--json'], { cwd: p.dir })).code).toBe(6);
  });

  it('refuses a literal secret in a header (exit 2)', async () => {
    const r = await cli(['import', 'mcp', '--json', '--url', url, '--header', 'Authorization: Bearer abc'], {
      cwd: p.dir,
    });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('header_secret_literal');
    expect(r.stderr).not.toContain('Bearer abc');
  });
});

describe('sources and usage errors', () => {
  const p = tempProject({ 'tool_registry/.keep': '', 'bad.json': '{ "mcpServers": ', 'empty.json': '{ "x": 1 }' });
  afterAll(() => p.cleanup());

  it.each([
    [['npx', '-y', '@scope/pkg@1.2.3', 'a', 'b'], { npm: '@scope/pkg@1.2.3', command: ['a', 'b'] }],
    [['npx', '--yes', '-p', 'pkg', 'pkg-bin', '--flag'], { npm: 'pkg', bin: 'pkg-bin', command: ['--flag'] }],
    [['uvx', 'mcp-server-fetch@2025.1'], { pypi: 'mcp-server-fetch@2025.1', command: [] }],
    [['uvx', '--from', 'pkg==1.0', 'pkg-cmd', 'x'], { pypi: 'pkg==1.0', bin: 'pkg-cmd', command: ['x'] }],
    [['node', 'server.js'], undefined],
  ])('parseLauncher %j', (argv, want) => {
    const got = parseLauncher(argv);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatchObject(want);
  });

  it('envTemplate turns client-config variables into ${NAME}', () => {
    expect(envTemplate('Bearer ${env:GH_TOKEN}')).toEqual({
      value: 'Bearer ${GH_TOKEN}',
      names: ['GH_TOKEN'],
      literal: false,
    });
    expect(envTemplate('${input:api-key}').names).toEqual(['API_KEY']);
    expect(envTemplate('plain').literal).toBe(true);
  });

  it.each([
    [['--from-config', 'bad.json'], 2, 'client_config_invalid'],
    [['--from-config', 'empty.json'], 2, 'client_config_invalid'],
    [['--from-config', 'nowhere.json'], 2, 'client_config_missing'],
    [['--npm', 'x', '--url', 'http://127.0.0.1:1/mcp'], 2, 'import_source_missing'],
    [['--prefix', '9bad', '--npm', 'x'], 2, 'bad_prefix'],
    [['--header', 'X: 1', '--npm', 'x'], 2, 'header_without_url'],
    [['--npm', 'Not A Name'], 2, 'bad_package'],
    [['--oauth-client-id', 'abc', '--npm', 'x'], 2, 'oauth_without_url'],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--oauth-client-metadata-url', 'http://x/c.json'],
      2,
      'bad_oauth_metadata_url',
    ],
    [['--url', 'http://127.0.0.1:1/mcp', '--oauth-client-secret-env', 'NO_SUCH_VAR_ZZ9'], 2, 'oauth_secret_missing'],
    [['--', 'npx', '--registry', 'http://evil', 'pkg'], 2, 'launcher_option_unsupported'],
  ])('%j exits %i (%s)', async (args, code, err) => {
    const r = await cli(['import', 'mcp', '--json', ...args], { cwd: p.dir });
    expect(r.code).toBe(code);
    expect(r.errorJson.error.code).toBe(err);
  });

  it('a package the registry does not have fails with exit 6 and writes nothing', async () => {
    const r = await cli(['import', 'mcp', '--json', '--npm', '@modelcontextprotocol/no-such-server-zz9'], {
      cwd: p.dir,
      env: { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS },
    });
    expect(r.code).toBe(6);
    expect(r.errorJson.error.code).toBe('server_install_failed');
  }, 120_000);
});

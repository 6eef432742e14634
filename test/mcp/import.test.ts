// `toolbox import mcp` against real reference servers: contracts written, re-import semantics.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cli } from '../helpers.js';
import { parseContract } from '../../src/contract/parse.js';
import { renderContractFile, toSnakeId } from '../../src/mcp/contract-file.js';
import { loader } from '../../src/loaders/mcp.js';
import type { ToolContract } from '../../src/contract/types.js';
import { callCtx, everythingHttp, mcpProject } from './fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function project() {
  const p = mcpProject();
  cleanups.push(p.cleanup);
  return p;
}
const everything = ['--', 'node_modules/.bin/mcp-server-everything', 'stdio'];
const reg = (dir: string) => join(dir, 'tool_registry');

describe('toolbox import mcp (server-everything over stdio)', () => {
  it('writes one valid contract per server tool, with a project-relative command', async () => {
    const p = project();
    const r = await cli(['import', 'mcp', '--json', '--prefix', 'ev_', ...everything], { cwd: p.dir });
    expect(r.code).toBe(0);
    const listed = r.json.tools as { id: string; tool: string; status: string; file: string }[];
    // Every tool is written, the task-augmented one too (its contract keeps execution.taskSupport).
    expect(listed.filter((t) => t.status === 'skipped')).toEqual([]);
    const tools = listed;
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.every((t) => t.status === 'written')).toBe(true);
    expect(r.json.server.name).toBeTruthy();
    for (const t of tools) {
      expect(t.id).toMatch(/^ev_[a-z0-9_]+$/);
      const bytes = readFileSync(t.file);
      const parsed = parseContract(t.file, bytes);
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const c = parsed.contract!;
      expect(c.loader).toBe('mcp');
      expect(c.provider).toBe(r.json.server.name);
      expect(c.loader_config).toMatchObject({
        command: 'node_modules/.bin/mcp-server-everything',
        args: ['stdio'],
        tool: t.tool,
      });
    }
  });

  it('an imported tool runs with `toolbox run` (sandboxed server started on demand)', async () => {
    const p = project();
    const imp = await cli(['import', 'mcp', '--json', '--prefix', 'ev_', ...everything], { cwd: p.dir });
    expect(imp.code).toBe(0);
    const echo = (imp.json.tools as { id: string; tool: string }[]).find((t) => t.tool === 'echo')!;
    const run = await cli(['run', echo.id, '--message', 'imported and run', '--json'], { cwd: p.dir });
    expect(run.code).toBe(0);
    expect(String(run.json.result)).toContain('imported and run');
    const bad = await cli(['run', echo.id, '--json'], { cwd: p.dir });
    expect(bad.code).toBe(2);
    // The task-augmented tool (taskSupport: required) runs as a task: created, polled, its result taken.
    const task = (imp.json.tools as { id: string; tool: string; file: string }[]).find(
      (t) => t.tool === 'simulate-research-query',
    )!;
    expect((parse(readFileSync(task.file, 'utf8')) as ToolContract).mcp).toEqual({ task: 'required' });
    const research = await cli(['run', task.id, '--topic', 'tide pools', '--json'], { cwd: p.dir });
    expect(research.errorJson?.error).toBeUndefined();
    expect(research.code).toBe(0);
    expect(JSON.stringify(research.json.result)).toContain('Research Report: tide pools');
  }, 60_000);

  it('a second import changes nothing; hand edits are kept; server-side changes are updated; --force overwrites', async () => {
    const p = project();
    const first = await cli(['import', 'mcp', '--json', ...everything], { cwd: p.dir });
    expect(first.code).toBe(0);
    const again = await cli(['import', 'mcp', '--json', ...everything], { cwd: p.dir });
    expect(again.json.counts.unchanged).toBe(first.json.counts.written);

    const [edited, stale] = first.json.tools as { id: string; file: string }[];
    const hand = readFileSync(edited!.file, 'utf8').replace(
      /^description: .*$/m,
      'description: My own words about this tool, when to use it.',
    );
    writeFileSync(edited!.file, hand);
    // What an older server version would have made toolbox write: a valid header, other content.
    const old = parse(readFileSync(stale!.file, 'utf8')) as ToolContract;
    writeFileSync(stale!.file, renderContractFile({ ...old, description: 'an older description' }, "MCP server 'x'"));

    const third = await cli(['import', 'mcp', '--json', ...everything], { cwd: p.dir });
    const status = Object.fromEntries(
      (third.json.tools as { id: string; status: string }[]).map((t) => [t.id, t.status]),
    );
    expect(status[edited!.id]).toBe('kept');
    expect(status[stale!.id]).toBe('updated');
    expect(readFileSync(edited!.file, 'utf8')).toBe(hand);
    expect(readFileSync(stale!.file, 'utf8')).not.toContain('an older description');

    const forced = await cli(['import', 'mcp', '--json', '--force', ...everything], { cwd: p.dir });
    expect(forced.json.tools.find((t: { id: string }) => t.id === edited!.id).status).toBe('overwritten');
    expect(readFileSync(edited!.file, 'utf8')).not.toContain('My own words');
  });

  it('never takes an id another contract uses (exit 1, conflict reported)', async () => {
    const p = project();
    p.write(
      'tool_registry/mine/echo.yaml',
      'id: echo\nname: Echo\ndescription: my own echo tool for tests.\nschema: { type: object }\nloader: command\nloader_config: { argv: [echo, hi] }\n',
    );
    const r = await cli(['import', 'mcp', '--json', ...everything], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.json.tools.find((t: { id: string }) => t.id === 'echo').status).toBe('conflict');
    expect(readFileSync(join(reg(p.dir), 'mine/echo.yaml'), 'utf8')).toContain('my own echo tool');
  });

  it('writes into --out inside the registry, and refuses a folder outside it (exit 2)', async () => {
    const p = project();
    const ok = await cli(['import', 'mcp', '--json', '--out', 'tool_registry/everything', ...everything], {
      cwd: p.dir,
    });
    expect(ok.code).toBe(0);
    expect(readdirSync(join(reg(p.dir), 'everything')).length).toBe(ok.json.counts.written);
    const bad = await cli(['import', 'mcp', '--json', '--out', 'elsewhere', ...everything], { cwd: p.dir });
    expect(bad.code).toBe(2);
    expect(bad.errorJson.error.code).toBe('out_outside_registry');
  });

  it('needs a command or --url (exit 2); a missing server command is exit 6, a server that dies exit 4', async () => {
    const p = project();
    const none = await cli(['import', 'mcp', '--json'], { cwd: p.dir });
    expect(none.code).toBe(2);
    expect(none.errorJson.error.code).toBe('import_source_missing');
    const missing = await cli(['import', 'mcp', '--json', '--', './no-such-server'], { cwd: p.dir });
    expect(missing.code).toBe(6);
    const dead = await cli(['import', 'mcp', '--json', '--', '/bin/false'], { cwd: p.dir });
    expect(dead.code).toBe(4);
    expect(dead.errorJson.error.code).toBe('mcp_server_failed');
  });
});

describe('toolbox import mcp (server-filesystem, HTTP)', () => {
  it('imports server-filesystem on a project folder with --path, and the imported tool reads a file', async () => {
    const p = project();
    const data = p.write('data/hello.txt', 'hello from the data folder\n').replace(/\/hello\.txt$/, '');
    const r = await cli(
      [
        'import',
        'mcp',
        '--json',
        '--prefix',
        'fs_',
        '--path',
        'data',
        '--',
        'node_modules/.bin/mcp-server-filesystem',
        data,
      ],
      { cwd: p.dir },
    );
    expect(r.code).toBe(0);
    const file = (r.json.tools as { id: string; file: string }[]).find((t) => t.id === 'fs_read_text_file')!.file;
    const c = parse(readFileSync(file, 'utf8')) as ToolContract;
    // --path and the argument name the same folder: one project-relative entry; the argument is stored portably.
    expect(c.sandbox?.paths).toEqual(['data']);
    expect(c.loader_config.args).toEqual(['${PROJECT_ROOT}/data']);
    const t = await loader.load({
      project: p.project,
      entry: { contract: c, file },
      longRunning: false,
      verbose: false,
    });
    const out = await t.call({ path: join(data, 'hello.txt') }, callCtx({ readOnlyPaths: [data] }));
    expect(JSON.stringify(out.result)).toContain('hello from the data folder');
  });

  it('refuses --path outside the project, as the runtime would (exit 2, nothing written)', async () => {
    const p = project();
    const outside = mkdtempSync(join(tmpdir(), 'toolbox-data-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    const r = await cli(
      ['import', 'mcp', '--json', '--path', outside, '--', 'node_modules/.bin/mcp-server-filesystem', outside],
      {
        cwd: p.dir,
      },
    );
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('sandbox_path_outside');
    expect(readdirSync(reg(p.dir))).toEqual(['.keep']);
  });

  it('imports from a Streamable HTTP URL with the network opened in the contracts', async () => {
    const p = project();
    const srv = await everythingHttp();
    try {
      const r = await cli(['import', 'mcp', '--json', '--url', srv.url, '--prefix', 'remote_'], { cwd: p.dir });
      expect(r.code).toBe(0);
      const c = parse(readFileSync(r.json.tools[0].file, 'utf8')) as ToolContract;
      expect(c.loader_config).toMatchObject({ url: srv.url });
      expect(c.sandbox?.network).toBe(true);
    } finally {
      await srv.stop();
    }
  });
});

describe('toSnakeId', () => {
  it.each([
    ['get-sum', '', 'get_sum'],
    ['readFile', 'fs_', 'fs_read_file'],
    ['HTTPRequest', '', 'http_request'],
    ['2fa code', '', '_2fa_code'],
    ['x'.repeat(100), 'p_', `p_${'x'.repeat(62)}`],
  ])('%s with prefix %j -> %s', (name, prefix, id) => {
    expect(toSnakeId(prefix, name)).toBe(id);
    expect(id).toMatch(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/);
  });
});

// Issue 23 item 11: what a tool relays through `serve` is bounded by the user, not the tool or the
// project. The real binary over stdio, the MCP SDK's client (with sampling), a real sandboxed
// Python tool that floods log/progress notifications and asks for wide, long sampling requests.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  type CreateMessageRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { BIN, spawnCli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project } from './helpers.js';

const p = project({
  'loud/__init__.py': '',
  'loud/t.py': `from toolbox_tool import log, progress, sample
def chatty(x=""):
    for i in range(3000):
        progress(i, 3000)
        log("info", "line %d" % i)
    log("info", "x" * (300 * 1024))
    return "done"
def asker(x=""):
    out = []
    for i in range(8):
        try:
            r = sample("hi", max_tokens=1000000, includeContext="allServers")
            out.append("ok")
        except Exception as e:
            out.append("refused: " + str(e))
    return {"answers": out}
`,
  'tool_registry/chatty.yaml': contract(
    'chatty',
    'python_function',
    '{ module: loud.t, function: chatty }',
    'timeout: 60s',
  ),
  'tool_registry/asker.yaml': contract('asker', 'python_function', '{ module: loud.t, function: asker }'),
});
const config = mkdtempSync(join(tmpdir(), 'toolbox-userconf-'));
afterAll(() => {
  p.cleanup();
  rmSync(config, { recursive: true, force: true });
});

/** The SDK client (declaring sampling) on `toolbox serve` over stdio, recording what the server sends it. */
async function connect(extraArgs: string[] = []) {
  const client = new Client({ name: 'relay-test', version: '1' }, { capabilities: { sampling: {} } });
  const seen = { logs: [] as unknown[], samples: [] as CreateMessageRequest['params'][] };
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
    seen.logs.push(n.params.data);
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (r) => {
    seen.samples.push(r.params);
    return { role: 'assistant', content: { type: 'text', text: 'fine' }, model: 'test-model' };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--registry', join(p.dir, 'tool_registry'), '--expose', 'all', ...extraArgs],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', XDG_CONFIG_HOME: config },
    stderr: 'pipe',
  });
  await client.connect(transport);
  await client.setLoggingLevel('debug'); // a client that asks for no log messages gets none
  return { client, seen };
}

const bytes = (xs: unknown[]) => xs.reduce<number>((n, x) => n + Buffer.byteLength(JSON.stringify(x)), 0);

describe('item 23.11: serve relays what the user allows', () => {
  it('caps the log and progress notifications of one call, with a marker', async () => {
    expect(expected('serve-notification-flood', 'bwrap')).toBe('blocked');
    const { client, seen } = await connect();
    let progress = 0;
    const r = await client.callTool({ name: 'chatty', arguments: {} }, undefined, {
      onprogress: () => progress++,
      timeout: 60_000,
    });
    expect(r.isError).toBeFalsy();
    const marker = seen.logs.filter(
      (d) => typeof d === 'string' && /rest of this call's notifications are dropped/.test(d),
    );
    expect(marker).toHaveLength(1);
    expect(seen.logs.length - 1 + progress).toBeLessThanOrEqual(1000);
    expect(bytes(seen.logs.filter((d) => !marker.includes(d)))).toBeLessThan(256 * 1024);
    expect(seen.logs.some((d) => typeof d === 'string' && d.length >= 300 * 1024)).toBe(false);
    await client.close();
  }, 90_000);

  it('bounds sampling requests by default: count, maxTokens, no includeContext', async () => {
    expect(expected('serve-sampling-limits', 'bwrap')).toBe('blocked');
    const { client, seen } = await connect();
    const r = await client.callTool({ name: 'asker', arguments: {} });
    const list = (r.structuredContent as { answers: string[] }).answers;
    expect(list.filter((a) => a === 'ok')).toHaveLength(5);
    expect(list.slice(5).every((a) => /refused: .*more than 5 sampling requests/.test(a))).toBe(true);
    expect(seen.samples).toHaveLength(5);
    for (const s of seen.samples) {
      expect(s.maxTokens).toBe(1024);
      expect(s.includeContext).toBe('none');
    }
    await client.close();
  }, 60_000);

  it("takes wider limits only from the user's own config or flags, never from the project", async () => {
    // The project cannot set them: serve is not a setting of toolbox.config.yaml.
    const planted = project({
      'toolbox.config.yaml': 'registry: tool_registry\nserve: { sampling: { include_context: allServers } }\n',
      'tool_registry/asker.yaml': contract('asker', 'python_function', '{ module: loud.t, function: asker }'),
    });
    try {
      const r = await spawnCli(['serve', '--http', '0', '--json'], { cwd: planted.dir, timeout: 20_000 });
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.message).toMatch(/unknown key 'serve'/);
    } finally {
      planted.cleanup();
    }
    mkdirSync(join(config, 'toolbox'), { recursive: true, mode: 0o700 });
    const file = join(config, 'toolbox', 'config.yaml');
    writeFileSync(file, 'serve:\n  sampling: { include_context: allServers, max_tokens: 4096, max_requests: 2 }\n', {
      mode: 0o600,
    });
    let c = await connect();
    await c.client.callTool({ name: 'asker', arguments: {} });
    expect(c.seen.samples.map((s) => [s.includeContext, s.maxTokens])).toEqual([
      ['allServers', 4096],
      ['allServers', 4096],
    ]);
    await c.client.close();
    // Flags win over the file.
    c = await connect(['--sampling-context', 'thisServer', '--sampling-max-tokens', '100']);
    await c.client.callTool({ name: 'asker', arguments: {} });
    expect(c.seen.samples.map((s) => [s.includeContext, s.maxTokens])).toEqual([
      ['thisServer', 100],
      ['thisServer', 100],
    ]);
    await c.client.close();
    // A settings file others can write is not the user's: ignored (defaults apply).
    chmodSync(file, 0o666);
    c = await connect();
    await c.client.callTool({ name: 'asker', arguments: {} });
    expect(c.seen.samples).toHaveLength(5);
    expect(new Set(c.seen.samples.map((s) => s.includeContext))).toEqual(new Set(['none']));
    await c.client.close();
    chmodSync(file, 0o600);
    // A bad value is an error at its line and column (exit 3).
    writeFileSync(file, 'serve:\n  sampling:\n    include_context: everything\n', { mode: 0o600 });
    const bad = await spawnCli(['serve', '--http', '0', '--json'], {
      cwd: p.dir,
      env: { XDG_CONFIG_HOME: config },
      timeout: 20_000,
    });
    expect(bad.code).toBe(3);
    expect(JSON.parse(bad.stderr.trim().split('\n').pop()!).error).toMatchObject({
      code: 'user_config_invalid',
      location: { line: 3, column: 5 },
    });
    rmSync(file);
  }, 120_000);
});

// OpenTelemetry end to end: a real OTLP/HTTP (JSON) receiver on loopback, the real binary for
// `run` (a short-lived CLI must flush before it exits) and `serve` over stdio with the SDK client
// sending a traceparent in params._meta.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, spawnCli, tempProject } from '../helpers.js';

interface Attr {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Attr[];
  status?: { code?: number };
}

/** A minimal OTLP/HTTP receiver: stores every JSON body posted to /v1/traces and /v1/metrics. */
function receiver() {
  const bodies: { path: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      expect(req.headers['content-type']).toMatch(/application\/json/);
      bodies.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    bodies,
    listen: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
    spans(): OtlpSpan[] {
      return bodies
        .filter((b) => b.path === '/v1/traces')
        .flatMap((b) => b.body.resourceSpans as { scopeSpans: { spans: OtlpSpan[] }[] }[])
        .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
    },
    metricNames(): string[] {
      return bodies
        .filter((b) => b.path === '/v1/metrics')
        .flatMap((b) => b.body.resourceMetrics as { scopeMetrics: { metrics: { name: string }[] }[] }[])
        .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics.map((m) => m.name)));
    },
  };
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue ?? v?.doubleValue;
};

const p = tempProject({
  'tools/__init__.py': '',
  'tools/shout.py':
    'def shout(text):\n    if text == "boom":\n        raise ValueError("boom")\n    return text.upper()\n',
  'tool_registry/shout.yaml': `id: shout
name: Shout
description: Returns the text in upper case. Use when the user asks to shout a text.
schema:
  type: object
  properties:
    text: { type: string, description: The text. }
  required: [text]
loader: python_function
loader_config: { module: tools.shout, function: shout }
`,
});
const rx = receiver();
let endpoint = '';
beforeAll(async () => {
  endpoint = await rx.listen();
});
afterAll(async () => {
  await rx.close();
  p.cleanup();
});

describe('OpenTelemetry export', () => {
  it('toolbox run: one execute_tool span and the duration metric, flushed before the CLI exits', async () => {
    rx.bodies.length = 0;
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'toolbox-test' };
    const ok = await spawnCli(['run', 'shout', '--text', 'secret words'], { cwd: p.dir, env });
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await spawnCli(['run', 'shout', '--text', 'boom'], { cwd: p.dir, env });
    expect(bad.code).toBe(4);
    const spans = rx.spans().filter((s) => s.name === 'execute_tool shout');
    expect(spans).toHaveLength(2);
    const [good, failed] = spans;
    expect(attr(good!, 'gen_ai.operation.name')).toBe('execute_tool');
    expect(attr(good!, 'gen_ai.tool.name')).toBe('shout');
    expect(attr(good!, 'gen_ai.tool.type')).toBe('function');
    expect(String(attr(good!, 'gen_ai.tool.call.id'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(good!.status?.code ?? 0).not.toBe(2);
    // Content is opt-in: not recorded by default.
    expect(JSON.stringify(good)).not.toContain('secret words');
    expect(failed!.status?.code).toBe(2); // ERROR
    expect(attr(failed!, 'error.type')).toBe('tool_failed');
    expect(rx.metricNames()).toContain('gen_ai.execute_tool.duration');
    const resource = JSON.stringify(rx.bodies.find((b) => b.path === '/v1/traces')!.body);
    expect(resource).toContain('toolbox-test');
  });

  it('content capture is opt-in (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)', async () => {
    rx.bodies.length = 0;
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' };
    expect((await spawnCli(['run', 'shout', '--text', 'hello'], { cwd: p.dir, env })).code).toBe(0);
    const [s] = rx.spans();
    expect(attr(s!, 'gen_ai.tool.call.arguments')).toBe('{"text":"hello"}');
    expect(attr(s!, 'gen_ai.tool.call.result')).toBe('HELLO');
  });

  it('serve: an MCP server span continues the client trace from params._meta; the tool span is its child', async () => {
    rx.bodies.length = 0;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const client = new Client({ name: 'otel-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--expose', 'all'],
        cwd: p.dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
        stderr: 'pipe',
      }),
    );
    const r = await client.callTool({
      name: 'shout',
      arguments: { text: 'hi' },
      _meta: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(r.isError).toBeFalsy();
    await client.close(); // serve exits when stdin closes, and flushes
    for (let i = 0; i < 100 && rx.spans().length < 2; i++) await new Promise((res) => setTimeout(res, 50));
    const spans = rx.spans();
    const mcp = spans.find((s) => s.name === 'tools/call shout');
    const tool = spans.find((s) => s.name === 'execute_tool shout');
    expect(mcp, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(tool).toBeDefined();
    expect(mcp!.traceId).toBe(traceId);
    expect(mcp!.parentSpanId).toBe(parentId);
    expect(mcp!.kind).toBe(2); // SERVER
    expect(attr(mcp!, 'mcp.method.name')).toBe('tools/call');
    expect(attr(mcp!, 'network.transport')).toBe('pipe');
    expect(tool!.traceId).toBe(traceId);
    expect(tool!.parentSpanId).toBe(mcp!.spanId);
    expect(attr(tool!, 'gen_ai.tool.call.id')).toBe(attr(mcp!, 'jsonrpc.request.id'));
  });
});

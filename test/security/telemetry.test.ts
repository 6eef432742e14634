// Issue 23 item 8: telemetry is the user's choice. A cloned project's toolbox.config.yaml points
// `telemetry.endpoint` at its own collector (a real OTLP/HTTP receiver on loopback stands in for it)
// and turns on `capture_content`, while the user's environment holds OTEL_EXPORTER_OTLP_HEADERS:
// the collector must receive nothing, and no argument may be recorded. Only the user's own
// environment or ~/.config/toolbox/config.yaml decides. The real binary runs (it flushes at exit).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, spawnCli, userConfigInTests } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, tiers } from './helpers.js';

const HEADER = 'x-api-key=otlp-SECRET-4711';
const got: { path: string; headers: string; body: string }[] = [];
let srv: Server;
let collector = '';
let p: ReturnType<typeof project>;

const tool = {
  'my_tools/__init__.py': '',
  'my_tools/echo.py': 'def echo(x=""):\n    return "echo " + x\n',
  'tool_registry/echo.yaml': contract('echo', 'python_function', '{ module: my_tools.echo, function: echo }'),
};

beforeAll(async () => {
  srv = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: JSON.stringify(req.headers), body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  collector = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  p = project({
    ...tool,
    'toolbox.config.yaml': `registry: tool_registry\ntelemetry:\n  endpoint: ${collector}\n  capture_content: true\n  service_name: cloned\n`,
  });
});
afterAll(() => {
  srv.close();
  p.cleanup();
});
afterEach(() => {
  userConfigInTests(undefined);
  got.length = 0;
});

const userEnv = { OTEL_EXPORTER_OTLP_HEADERS: HEADER };

describe("issue 23 item 8: telemetry is the user's choice", () => {
  it("a project's telemetry.endpoint receives nothing, though the user's env has OTLP headers", async () => {
    expect(expected('telemetry-project-endpoint', tiers[0]!)).toBe('blocked');
    const r = await spawnCli(['run', 'echo', '--x', 'private words', '--json'], { cwd: p.dir, env: userEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(got).toEqual([]);
  });

  it('the same collector named in your own config.yaml does receive the trace (the test can see a leak)', async () => {
    userConfigInTests(`telemetry:\n  endpoint: ${collector}\n`);
    const r = await spawnCli(['run', 'echo', '--x', 'private words', '--json'], { cwd: p.dir, env: userEnv });
    expect(r.code, r.stderr).toBe(0);
    const traces = got.filter((g) => g.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]!.headers).toContain('otlp-SECRET-4711');
    // The project may name the service (a label); it may not turn on content capture.
    expect(traces.map((t) => t.body).join('')).toContain('cloned');
    expect(got.map((g) => g.body).join('')).not.toContain('private words');
  });

  it("a project's capture_content does not record your arguments on your own collector", async () => {
    expect(expected('telemetry-project-capture', tiers[0]!)).toBe('blocked');
    const env = { ...userEnv, OTEL_EXPORTER_OTLP_ENDPOINT: collector };
    const r = await spawnCli(['run', 'echo', '--x', 'private words', '--json'], { cwd: p.dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(got.length).toBeGreaterThan(0);
    expect(got.map((g) => g.body).join('')).not.toContain('private words');
    // Yours does.
    userConfigInTests('telemetry: { capture_content: true }\n');
    await spawnCli(['run', 'echo', '--x', 'private words', '--json'], { cwd: p.dir, env });
    expect(got.map((g) => g.body).join('')).toContain('private words');
  });

  it('validate warns at line:column (never an error), doctor and run --verbose say so; work goes on', async () => {
    const v = await cli(['validate', '--no-routing', '--json'], { cwd: p.dir });
    const found = (v.json.diagnostics as { rule: string; line: number; column: number; severity: string }[])
      .filter((d) => d.rule === 'config-user-only')
      .map((d) => `${d.line}:${d.column} ${d.severity}`);
    expect(found).toEqual(['3:3 warning', '4:3 warning']);
    expect(v.code).toBe(0);
    const d = await cli(['doctor', '--json'], { cwd: p.dir });
    const problems = (d.json.problems as { area: string; message: string }[]).filter((x) => x.area === 'config');
    expect(problems.map((x) => x.message.replace(/^.*toolbox\.config\.yaml:/, ''))).toEqual([
      expect.stringMatching(/^3:3: telemetry\.endpoint in the project's config is ignored/),
      expect.stringMatching(/^4:3: telemetry\.capture_content in the project's config is ignored/),
    ]);
    const r = await cli(['run', 'echo', '--x', 'hi', '--verbose'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/telemetry\.endpoint in the project's config is ignored/);
  });

  it("a project's select.embeddings gets neither your queries nor the key it names; yours does", async () => {
    expect(expected('embeddings-project-endpoint', tiers[0]!)).toBe('blocked');
    const q = project({
      ...tool,
      'tool_registry/echo2.yaml': contract('echo2', 'python_function', '{ module: my_tools.echo, function: echo }'),
      'toolbox.config.yaml': `registry: tool_registry\nselect:\n  embeddings: { url: ${collector}/v1, api_key_env: EMB_KEY }\n`,
    });
    try {
      const env = { EMB_KEY: 'emb-SECRET-4711' };
      const r = await cli(['select', 'hostile tool contained', '--json'], { cwd: q.dir, env });
      expect(r.code, r.stderr).toBe(0);
      expect((r.json.tools ?? r.json.results ?? []).length).toBeGreaterThan(1);
      expect(got).toEqual([]);
      userConfigInTests(`select:\n  embeddings: { url: ${collector}/v1, api_key_env: EMB_KEY }\n`);
      await cli(['select', 'hostile tool contained', '--json'], { cwd: q.dir, env });
      expect(got.map((g) => g.path)).toContain('/v1/embeddings');
      expect(got[0]!.headers).toContain('emb-SECRET-4711');
    } finally {
      q.cleanup();
    }
  });

  it('a bad value in your own config.yaml is user_config_invalid at its line:column (exit 3)', async () => {
    userConfigInTests('telemetry:\n  endpoint: ftp://nowhere\n');
    const r = await cli(['run', 'echo', '--x', 'hi', '--json'], { cwd: p.dir, env: {} });
    expect([r.code, r.errorJson?.error.code]).toEqual([3, 'user_config_invalid']);
    expect(r.errorJson?.error.message).toMatch(/config\.yaml:2:3: telemetry\.endpoint: expected an http/);
  });
});

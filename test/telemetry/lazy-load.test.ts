// Start-up does not pay for OpenTelemetry: without OTEL_EXPORTER_OTLP_ENDPOINT no
// @opentelemetry module is even resolved (checked with a module resolve hook and a require() probe
// in the real binary);
// with it, the SDK is loaded (so the check can fail).
import { execFile } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, tempProject } from '../helpers.js';

const p = tempProject({
  'hooks.mjs': `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier.includes('@opentelemetry')) appendFileSync(process.env.OTEL_PROBE_LOG, specifier + '\\n');
  return next(specifier, context);
}
`,
  // ES imports through the resolve hook; require() (the bundled CLI requires CommonJS packages) here.
  'register.mjs': `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request.includes('@opentelemetry')) appendFileSync(process.env.OTEL_PROBE_LOG, request + '\\n');
  return load.call(this, request, ...rest);
};
`,
  'tools/__init__.py': '',
  'tools/echo.py': 'def echo(text):\n    return text\n',
  'tool_registry/echo.yaml': `id: echo
name: Echo
description: Returns the text unchanged. Use when the user asks to repeat a text.
schema: { type: object, properties: { text: { type: string, description: The text. } }, required: [text] }
loader: python_function
loader_config: { module: tools.echo, function: echo }
`,
});
afterAll(() => p.cleanup());

function loadedOtel(argv: string[], env: Record<string, string>, log: string): Promise<string[]> {
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(join(p.dir, 'register.mjs')).href, BIN, ...argv],
      { cwd: p.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, OTEL_PROBE_LOG: log, ...env } },
      (err) => {
        if (err && typeof err.code !== 'number') return rej(err);
        res(existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
      },
    );
  });
}

describe('OpenTelemetry is loaded only when asked for', () => {
  it('run and list load no @opentelemetry module by default', async () => {
    expect(await loadedOtel(['run', 'echo', '--text', 'hi'], {}, join(p.dir, 'a.log'))).toEqual([]);
    expect(await loadedOtel(['list', '--json'], {}, join(p.dir, 'b.log'))).toEqual([]);
  });
  it('with OTEL_EXPORTER_OTLP_ENDPOINT the SDK and exporter are loaded', async () => {
    // A closed port: the export fails quietly, within the flush deadline, and the command still succeeds.
    const t0 = Date.now();
    const got = await loadedOtel(
      ['run', 'echo', '--text', 'hi'],
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
      join(p.dir, 'c.log'),
    );
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(got).toContain('@opentelemetry/sdk-trace-node');
    expect(got).toContain('@opentelemetry/exporter-trace-otlp-http');
  });
});

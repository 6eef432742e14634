// What a user reads when tracing is asked for but cannot start: where (never its credentials) and why.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_PACKAGES, endpointOrigin, telemetryProblem } from '../../src/telemetry/state.js';
import { REPO } from '../helpers.js';

it('the install line names the lines toolbox is tested with (its devDependencies), and every SDK import', () => {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  for (const spec of SDK_PACKAGES) {
    const [, name, line] = /^(@[^@]+)@(.+)$/.exec(spec)!;
    expect(pkg.dependencies[name!], name).toBeUndefined();
    expect(pkg.devDependencies[name!]!.replace(/^[~^]/, ''), name).toMatch(
      new RegExp(`^${line!.replace('.', '\\.')}\\.`),
    );
  }
  const imported = [
    ...readFileSync(join(REPO, 'src', 'telemetry', 'sdk.ts'), 'utf8').matchAll(/from '(@opentelemetry\/[^']+)'/g),
  ]
    .map((m) => m[1])
    .filter((n) => n !== '@opentelemetry/api');
  expect(imported.sort()).toEqual(SDK_PACKAGES.map((s) => s.replace(/@[^@]+$/, '')).sort());
});

describe('endpointOrigin', () => {
  it.each([
    ['http://127.0.0.1:4318', 'http://127.0.0.1:4318'],
    ['https://alice:s3cr3t@otel.example.com/v1?api_key=XYZ', 'https://otel.example.com'],
    ['https://otel.example.com:8443/tenant/abc123/', 'https://otel.example.com:8443'],
    ['not a url', 'the configured endpoint'],
    ['file:///etc/passwd', 'the configured endpoint'],
  ])('%s → %s', (endpoint, origin) => {
    expect(endpointOrigin(endpoint)).toBe(origin);
  });
});

describe('telemetryProblem', () => {
  const endpoint = 'https://alice:s3cr3t@otel.example.com/v1?api_key=XYZ';
  it('names the missing package, from ESM and CommonJS errors, without its path', () => {
    const esm = Object.assign(new Error("Cannot find package '@opentelemetry/resources' imported from /x/cli.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const cjs = Object.assign(
      new Error("Cannot find module '/app/node_modules/@opentelemetry/sdk-metrics'\nRequire stack:"),
      {
        code: 'MODULE_NOT_FOUND',
      },
    );
    expect(telemetryProblem(esm, endpoint)).toBe(
      'the OpenTelemetry SDK is not installed (no @opentelemetry/resources)',
    );
    expect(telemetryProblem(cjs, endpoint)).toBe(
      'the OpenTelemetry SDK is not installed (no @opentelemetry/sdk-metrics)',
    );
  });
  it('says an installed SDK of another major could not start, on one line, without the credentials', () => {
    const e = new TypeError(`NodeTracerProvider is not a constructor (for ${endpoint})\n    at startSdk`);
    const said = telemetryProblem(e, endpoint);
    expect(said).toBe(
      'the OpenTelemetry SDK could not start (NodeTracerProvider is not a constructor (for https://otel.example.com); ' +
        'toolbox needs SDK 2.x and exporters 0.2xx)',
    );
    expect(said).not.toMatch(/s3cr3t|XYZ|alice/);
  });
});

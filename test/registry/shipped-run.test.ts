// The shipped registry end to end through `toolbox run` / `toolbox validate` (in process): real
// loaders, real sandbox, local stand-ins for the network services. Each test works on a copy of
// the registry so the call log and circuit-breaker state stay out of the repository.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, grantInTests, REPO, spawnCli } from '../helpers.js';
import { closedPort, listen } from './shipped-helpers.js';
import { startSmtp } from './shipped-smtp.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolbox-shipped-'));
  const skipCaches = (src: string) => !src.includes('__pycache__');
  cpSync(join(REPO, 'tool_registry'), join(dir, 'tool_registry'), { recursive: true, filter: skipCaches });
  cpSync(join(REPO, 'my_tools'), join(dir, 'my_tools'), { recursive: true, filter: skipCaches });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[], env: Record<string, string> = {}) => cli(argv, { cwd: dir, env });

describe('toolbox run on the shipped tools', () => {
  it('calculator (python_function): the result and its format template', async () => {
    const r = await run(['run', 'calculator', '--expression', '(3+4)*2^10', '--json']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ tool: 'calculator', ok: true, result: { result: 7168 }, text: '(3+4)*2^10 = 7168' });
  });

  it("calculator: a tool error is exit 4 with the tool's message", async () => {
    const r = await run(['run', 'calculator', '--expression', '1/0', '--json']);
    expect(r.code).toBe(4);
    expect(r.errorJson.error.message).toMatch(/division by zero/);
  });

  it('text_stats (node_module) counts Chinese and English', async () => {
    const r = await run(['run', 'text_stats', '--text', '你好，世界。Hello world!', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.result).toMatchObject({ cjk_characters: 4, latin_words: 2, sentences: 2 });
  });

  it('json_query (node_module): the JSON document goes in as --document', async () => {
    const r = await run([
      'run',
      'json_query',
      '--document',
      '{"items":[{"id":1},{"id":2}]}',
      '--path',
      'items[*].id',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json.result.matches.map((m: { value: number }) => m.value)).toEqual([1, 2]);
  });

  it('hash_text (command): argv template with stdin, digest only', async () => {
    const r = await run(['run', 'hash_text', '--text', 'hello', '--algorithm', 'sha256']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  });

  it('hash_text: an algorithm outside the enum is a usage error (exit 2) before anything runs', async () => {
    const r = await run(['run', 'hash_text', '--text', 'x', '--algorithm', 'sh', '--json']);
    expect(r.code).toBe(2);
  });

  it('general_search without BRAVE_API_KEY: missing dependency, exit 6', async () => {
    const r = await run(['run', 'general_search', '--query', 'node.js', '--json']);
    expect(r.code).toBe(6);
    expect(JSON.stringify(r.errorJson)).toContain('BRAVE_API_KEY');
  });
});

describe('query_weather end to end', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (url.pathname === '/v1/search') {
        res.end(
          JSON.stringify({
            results: [
              {
                name: '北京市',
                latitude: 39.9075,
                longitude: 116.39723,
                country: '中国',
                admin1: '北京市',
                timezone: 'Asia/Shanghai',
              },
            ],
          }),
        );
      } else {
        res.end(
          JSON.stringify({
            timezone: 'Asia/Shanghai',
            current: {
              time: '2024-06-01T14:00',
              temperature_2m: 28.4,
              relative_humidity_2m: 35,
              apparent_temperature: 27.9,
              precipitation: 0,
              weather_code: 0,
              wind_speed_10m: 11.2,
              wind_direction_10m: 0,
            },
            daily: {
              time: ['2024-06-01', '2024-06-02'],
              weather_code: [0, 63],
              temperature_2m_max: [31, 25],
              temperature_2m_min: [18, 19],
              precipitation_probability_max: [0, 90],
              precipitation_sum: [0, 12],
            },
          }),
        );
      }
    });
    const port = await listen(server);
    base = `http://127.0.0.1:${port}`;
    // The tool lists the Open-Meteo hosts; the stand-in on loopback is opened by the user's grant
    // (a contract cannot list loopback: issue 33).
    grantInTests(dir, { network: [`127.0.0.1:${port}`] }, 'query_weather');
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('toolbox run query_weather --city 北京 (network opened by the contract, URLs allow-listed)', async () => {
    const r = await run(['run', 'query_weather', '--city', '北京'], {
      OPEN_METEO_GEOCODING_URL: `${base}/v1/search`,
      OPEN_METEO_FORECAST_URL: `${base}/v1/forecast`,
    });
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('北京市, 中国 现在晴，28.4°C');
    expect(r.stdout).toContain('明天（2024-06-02）中雨');
  });

  it('offline: exit 4 and a message that says the service needs internet access', async () => {
    const port = await closedPort();
    grantInTests(dir, { network: [`127.0.0.1:${port}`] }, 'query_weather');
    const r = await run(['run', 'query_weather', '--city', '北京', '--json'], {
      OPEN_METEO_GEOCODING_URL: `http://127.0.0.1:${port}/v1/search`,
    });
    expect(r.code).toBe(4);
    expect(r.errorJson.error.message).toMatch(/cannot reach the weather service .*needs internet access/);
  });
});

describe('send_email end to end', () => {
  it('refused without a permitted role (exit 7), delivered with --role assistant', async () => {
    const smtp = await startSmtp();
    // The SMTP server on loopback is opened by the user's grant; the tool reaches it through SOCKS5.
    grantInTests(dir, { network: [`127.0.0.1:${smtp.port}`] }, 'send_email');
    try {
      const env = {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'bot@example.com',
        SMTP_SECURITY: 'none',
      };
      const args = [
        'run',
        'send_email',
        '--to',
        'zhangsan@example.com',
        '--subject',
        '会议提醒',
        '--body',
        '明天上午十点开会。',
        '--json',
      ];
      const denied = await run(args, env);
      expect(denied.code).toBe(7);
      expect(smtp.mails).toHaveLength(0);
      // The real binary: its environment is the one the SMTP_* variables are checked against.
      const sent = await spawnCli([...args, '--role', 'assistant'], { cwd: dir, env });
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
      expect(JSON.parse(sent.stdout).result).toMatchObject({
        sent: true,
        to: ['zhangsan@example.com'],
        subject: '会议提醒',
      });
      expect(smtp.mails.map((m) => m.to)).toEqual([['zhangsan@example.com']]);
    } finally {
      await smtp.close();
    }
  });

  it('not configured: missing dependency (exit 6) naming the variables', async () => {
    const r = await run([
      'run',
      'send_email',
      '--to',
      'a@example.com',
      '--subject',
      'x',
      '--body',
      'y',
      '--role',
      'assistant',
      '--json',
    ]);
    expect(r.code).toBe(6);
    expect(JSON.stringify(r.errorJson)).toMatch(/SMTP_HOST[\s\S]*SMTP_FROM/);
  });
});

it('toolbox validate passes on the shipped registry; the warnings are the reference description (kept verbatim) and the credentials two tools would need granted', async () => {
  // On a copy of the whole project (config included): validate's routing check writes the select index.
  const project = mkdtempSync(join(tmpdir(), 'toolbox-shipped-validate-'));
  try {
    for (const d of ['tool_registry', 'my_tools', 'schemas', 'toolbox.config.yaml'])
      cpSync(join(REPO, d), join(project, d), { recursive: true, filter: (src) => !src.includes('__pycache__') });
    await validateShipped(project);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

async function validateShipped(cwd: string) {
  // None of the credentials set: each one asked for with the network open is a warning (issue 23 item 7).
  const r = await cli(['validate', '--json'], { cwd, env: { BRAVE_API_KEY: '', SMTP_PASSWORD: '' } });
  expect(r.code).toBe(0);
  expect(r.json.summary.errors).toBe(0);
  const credentials = r.json.diagnostics
    .filter((d: any) => d.rule === 'sandbox-env')
    .map((d: any) => `${d.file.split('/').pop()} ${d.path} ${d.severity}`);
  expect(credentials).toEqual([
    'general_search.yaml sandbox.env.0 warning',
    'general_search.yaml requires.env.0 warning',
    'send_email.yaml sandbox.env.3 warning',
  ]);
  const others = r.json.diagnostics.filter(
    (d: any) =>
      !(d.file.endsWith('query_weather.yaml') && d.rule === 'description-when-to-use') && d.rule !== 'sandbox-env',
  );
  expect(others).toEqual([]);
}

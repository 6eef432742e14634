// The shipped tools that talk to the network, against local servers that answer like the real
// services: Open-Meteo (query_weather) and an SMTP server (send_email).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callTool, closedPort, listen, pythonPath, runChild } from './shipped-helpers.js';
import { startSmtp, type SmtpFixture } from './shipped-smtp.js';

// Shapes copied from the documented Open-Meteo responses (geocoding v1/search, v1/forecast).
const BEIJING = {
  results: [
    {
      id: 1816670,
      name: '北京市',
      latitude: 39.9075,
      longitude: 116.39723,
      elevation: 49,
      feature_code: 'PPLC',
      country_code: 'CN',
      timezone: 'Asia/Shanghai',
      population: 18960744,
      country: '中国',
      admin1: '北京市',
    },
  ],
  generationtime_ms: 0.9,
};
const FORECAST = {
  latitude: 39.875,
  longitude: 116.375,
  generationtime_ms: 0.1,
  utc_offset_seconds: 28800,
  timezone: 'Asia/Shanghai',
  timezone_abbreviation: 'GMT+8',
  elevation: 49,
  current_units: {
    time: 'iso8601',
    interval: 'seconds',
    temperature_2m: '°C',
    relative_humidity_2m: '%',
    apparent_temperature: '°C',
    precipitation: 'mm',
    weather_code: 'wmo code',
    wind_speed_10m: 'km/h',
    wind_direction_10m: '°',
  },
  current: {
    time: '2024-06-01T14:00',
    interval: 900,
    temperature_2m: 28.4,
    relative_humidity_2m: 35,
    apparent_temperature: 27.9,
    precipitation: 0,
    weather_code: 1,
    wind_speed_10m: 11.2,
    wind_direction_10m: 200,
  },
  daily_units: {
    time: 'iso8601',
    weather_code: 'wmo code',
    temperature_2m_max: '°C',
    temperature_2m_min: '°C',
    precipitation_probability_max: '%',
    precipitation_sum: 'mm',
  },
  daily: {
    time: ['2024-06-01', '2024-06-02', '2024-06-03'],
    weather_code: [1, 61, 3],
    temperature_2m_max: [31.2, 26.5, 29],
    temperature_2m_min: [18.1, 19.4, 17.8],
    precipitation_probability_max: [5, 80, 20],
    precipitation_sum: [0, 6.3, 0],
  },
};

describe('query_weather (my_tools/weather.py) against a local Open-Meteo', () => {
  let server: Server;
  let base = '';
  const seen: URL[] = [];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url!, 'http://x');
      seen.push(url);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/v1/search') {
        if (url.searchParams.get('name') === '北京') send(200, BEIJING);
        else send(200, { generationtime_ms: 0.5 }); // no "results" key: nothing found
      } else if (url.pathname === '/v1/forecast') {
        if (url.searchParams.get('latitude') === String(BEIJING.results[0]!.latitude)) send(200, FORECAST);
        else send(400, { error: true, reason: 'Latitude must be in range of -90 to 90°.' });
      } else send(404, { error: true, reason: 'not found' });
    });
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const env = () => ({ OPEN_METEO_GEOCODING_URL: `${base}/v1/search`, OPEN_METEO_FORECAST_URL: `${base}/v1/forecast` });

  it('returns current weather and a 3-day forecast for 北京', async () => {
    const out = await callTool('query_weather', { city: '北京' }, env());
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const v = out.value;
    expect(v.location).toBe('北京市, 中国');
    expect(v.timezone).toBe('Asia/Shanghai');
    expect(v.current).toMatchObject({
      time: '2024-06-01T14:00',
      weather: '大部晴朗',
      temperature_c: 28.4,
      humidity_percent: 35,
      wind_direction: '南风',
    });
    expect(v.forecast).toHaveLength(3);
    expect(v.forecast[1]).toMatchObject({
      date: '2024-06-02',
      weather: '小雨',
      precipitation_probability_percent: 80,
      rain_expected: true,
    });
    expect(v.forecast[0].rain_expected).toBe(false);
    expect(v.summary).toContain('明天（2024-06-02）小雨');
    // The query asked for Chinese place names and the daily fields the tool reads.
    const geo = seen.find((u) => u.pathname === '/v1/search')!;
    expect(geo.searchParams.get('language')).toBe('zh');
    const fc = seen.find((u) => u.pathname === '/v1/forecast')!;
    expect(fc.searchParams.get('daily')).toContain('precipitation_probability_max');
  });

  it('fails clearly when the city is unknown', async () => {
    const out = await callTool('query_weather', { city: 'Atlantisxyz' }, env());
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/no place named 'Atlantisxyz'/);
  });

  it("passes the service's own error reason through", async () => {
    const geo = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ ...BEIJING.results[0], latitude: 999 }] }));
    });
    const port = await listen(geo);
    try {
      const out = await callTool(
        'query_weather',
        { city: '北京' },
        { ...env(), OPEN_METEO_GEOCODING_URL: `http://127.0.0.1:${port}/v1/search` },
      );
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.error).toMatch(/HTTP 400: Latitude must be in range/);
    } finally {
      await new Promise<void>((r) => geo.close(() => r()));
    }
  });

  it('offline: says the service cannot be reached and that internet is needed; no made-up data', async () => {
    const port = await closedPort();
    const out = await callTool(
      'query_weather',
      { city: '北京' },
      {
        OPEN_METEO_GEOCODING_URL: `http://127.0.0.1:${port}/v1/search`,
        OPEN_METEO_FORECAST_URL: `http://127.0.0.1:${port}/v1/forecast`,
      },
    );
    expect(out).toMatchObject({ ok: false, type: 'RuntimeError' });
    if (!out.ok)
      expect(out.error).toMatch(
        new RegExp(`cannot reach the weather service at 127\\.0\\.0\\.1:${port}: .*needs internet access`),
      );
  });

  it('rejects an empty city name', async () => {
    const out = await callTool('query_weather', { city: '  ' }, env());
    expect(out).toMatchObject({ ok: false, type: 'ValueError' });
  });
});

/** Parse a raw message with Python's email package (handles RFC 2047 subjects and any transfer encoding). */
async function parseMail(
  raw: string,
): Promise<{ to: string; cc: string | null; from: string; subject: string; body: string }> {
  const py =
    'import email, json, sys\nfrom email import policy\nm = email.message_from_bytes(sys.stdin.buffer.read(), policy=policy.default)\n' +
    'print(json.dumps({"to": m["To"], "cc": m["Cc"], "from": m["From"], "subject": m["Subject"], "body": m.get_body().get_content()}))';
  const r = await runChild(await pythonPath(), ['-c', py], raw);
  return JSON.parse(r.stdout);
}

describe('send_email (my_tools/mailer.py) against a local SMTP server', () => {
  let smtp: SmtpFixture | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });
  const base = (port: number) => ({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(port),
    SMTP_FROM: 'Toolbox <bot@example.com>',
    SMTP_SECURITY: 'none',
  });

  it('delivers a UTF-8 message with the right recipients, subject and body', async () => {
    smtp = await startSmtp();
    const out = await callTool(
      'send_email',
      {
        to: ['张三 <zhangsan@example.com>'],
        cc: ['boss@example.com'],
        subject: '周报：第 23 周进展',
        body: '张三你好，\n\n本周完成了登录模块。\n.line starting with a dot\n', // the dot line exercises SMTP dot-stuffing
      },
      base(smtp.port),
    );
    expect(out).toMatchObject({
      ok: true,
      value: { sent: true, to: ['张三 <zhangsan@example.com>'], cc: ['boss@example.com'], refused: [] },
    });
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('bot@example.com');
    expect(mail.to.sort()).toEqual(['boss@example.com', 'zhangsan@example.com']);
    const parsed = await parseMail(mail.data);
    expect(parsed.subject).toBe('周报：第 23 周进展');
    expect(parsed.to).toBe('张三 <zhangsan@example.com>');
    expect(parsed.cc).toBe('boss@example.com');
    expect(parsed.body.replace(/\r\n/g, '\n')).toBe('张三你好，\n\n本周完成了登录模块。\n.line starting with a dot\n');
  });

  it('logs in when SMTP_USER / SMTP_PASSWORD are set', async () => {
    smtp = await startSmtp({ user: 'bot', password: 's3cret-pw' });
    const out = await callTool(
      'send_email',
      { to: ['a@example.com'], subject: 'hi', body: 'hello' },
      { ...base(smtp.port), SMTP_USER: 'bot', SMTP_PASSWORD: 's3cret-pw' },
    );
    expect(out.ok).toBe(true);
    expect(smtp.mails[0]?.authUser).toBe('bot');
  });

  it('a rejected login names the variables, never the password', async () => {
    smtp = await startSmtp({ user: 'bot', password: 'right' });
    const out = await callTool(
      'send_email',
      { to: ['a@example.com'], subject: 'hi', body: 'x' },
      { ...base(smtp.port), SMTP_USER: 'bot', SMTP_PASSWORD: 'wrong-pw-123' },
    );
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error).toMatch(/SMTP_USER and SMTP_PASSWORD/);
      expect(out.error).not.toContain('wrong-pw-123');
    }
    expect(smtp.mails).toHaveLength(0);
  });

  it('not configured: names the missing variables', async () => {
    const out = await callTool(
      'send_email',
      { to: ['a@example.com'], subject: 'hi', body: 'x' },
      { SMTP_PASSWORD: 'do-not-print' },
    );
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error).toMatch(/not configured: set SMTP_HOST, SMTP_FROM/);
      expect(out.error).not.toContain('do-not-print');
    }
  });

  it('rejects an invalid address before connecting', async () => {
    const out = await callTool('send_email', { to: ['not-an-address'], subject: 'hi', body: 'x' }, base(1));
    expect(out).toMatchObject({ ok: false, type: 'ValueError' });
    if (!out.ok) expect(out.error).toContain("'to' has an invalid email address");
  });

  it('an unreachable server is a clear error', async () => {
    const port = await closedPort();
    const out = await callTool('send_email', { to: ['a@example.com'], subject: 'hi', body: 'x' }, base(port));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(new RegExp(`cannot reach the SMTP server at 127\\.0\\.0\\.1:${port}`));
  });
});

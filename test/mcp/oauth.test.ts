// The OAuth client of an MCP server (src/mcp/oauth.ts), against what docs/mcp.md claims: the browser's
// return is accepted only with the state toolbox sent, registrations and tokens stay in the user's own
// state folder (0700/0600, never the project) per server and per authorization server, and without a
// person to ask nothing is opened. The whole flow against real authorization servers is the
// conformance suite's auth/* scenarios (conformance-client.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { ServerOAuth } from '../../src/mcp/oauth.js';
import { openSession } from '../../src/mcp/session.js';
import { ToolboxError } from '../../src/errors.js';

const state = mkdtempSync(join(tmpdir(), 'toolbox-oauth-state-'));
const saved = process.env.XDG_STATE_HOME;
beforeAll(() => {
  process.env.XDG_STATE_HOME = state;
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = saved;
  for (const d of [state, P, Q]) rmSync(d, { recursive: true, force: true });
});

const A = 'https://mcp.example.test/a';
const B = 'https://mcp.example.test/b';
const P = mkdtempSync(join(tmpdir(), 'toolbox-oauth-project-'));
const Q = mkdtempSync(join(tmpdir(), 'toolbox-oauth-other-'));

describe('OAuth for --url servers', () => {
  it('accepts the browser back only with the state it sent; a forged callback is refused and changes nothing', async () => {
    let opened = '';
    const oauth = new ServerOAuth(P, A, { openUrl: (u) => void (opened = u) });
    await oauth.listen();
    try {
      const redirect = oauth.redirectUrl!;
      expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const sent = oauth.state();
      const auth = new URL('https://as.example.test/authorize');
      auth.searchParams.set('state', sent);
      const waiting = oauth.redirectToAuthorization(auth);
      // Another page (or process) tries to slip in its own code: 400, and the flow keeps waiting.
      const forged = await fetch(`${redirect}?code=evil&state=not-the-one`);
      expect(forged.status).toBe(400);
      expect(oauth.pending).toBeUndefined();
      const real = await fetch(
        `${redirect}?code=good&state=${encodeURIComponent(sent)}&iss=https%3A%2F%2Fas.example.test`,
      );
      expect(real.status).toBe(200);
      await waiting;
      expect(opened).toBe(auth.toString());
      expect(oauth.pending?.get('code')).toBe('good');
      expect(oauth.pending?.get('iss')).toBe('https://as.example.test');
      // Once answered, the same callback is not taken again.
      expect((await fetch(`${redirect}?code=again&state=${encodeURIComponent(sent)}`)).status).toBe(400);
    } finally {
      oauth.close();
    }
  });

  it('keeps registrations and tokens in the user state folder, 0700/0600, per server and per authorization server', () => {
    const a = new ServerOAuth(P, A);
    a.saveClientInformation({ client_id: 'at-as1' }, { issuer: 'https://as1.example.test' });
    a.saveTokens({ access_token: 'token-for-a', token_type: 'Bearer' }, { issuer: 'https://as1.example.test' });
    const dir = join(state, 'toolbox', 'mcp-oauth');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files.length).toBe(1);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    // Read back by a new process's provider for the same server...
    const again = new ServerOAuth(P, A);
    expect(again.tokens({ issuer: 'https://as1.example.test' })?.access_token).toBe('token-for-a');
    // ...but another authorization server of the same MCP server gets no registration or token from the first,
    expect(again.clientInformation({ issuer: 'https://as2.example.test' })).toBeUndefined();
    expect(again.tokens({ issuer: 'https://as2.example.test' })).toBeUndefined();
    // and another MCP server gets nothing at all.
    const b = new ServerOAuth(P, B);
    expect(b.tokens()).toBeUndefined();
    expect(b.clientInformation({ issuer: 'https://as1.example.test' })).toBeUndefined();
  });

  it('with nobody to ask (serve), a needed authorization fails at once with mcp_auth_required', async () => {
    const oauth = new ServerOAuth(P, A);
    await oauth.listen();
    expect(oauth.redirectUrl).toBeUndefined();
    const err = await oauth
      .redirectToAuthorization(new URL('https://as.example.test/authorize'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolboxError);
    expect((err as ToolboxError).code).toBe('mcp_auth_required');
    expect((err as ToolboxError).hint).toContain(`toolbox import mcp --url ${A}`);
  });

  it("keeps tokens per (project, server URL): another project naming the same URL gets none, nor an old per-URL file's", async () => {
    const mine = new ServerOAuth(P, A);
    mine.saveTokens({ access_token: 'token-for-p', token_type: 'Bearer' }, { issuer: 'https://as1.example.test' });
    mine.saveClientInformation({ client_id: 'client-of-p' }, { issuer: 'https://as1.example.test' });
    const other = new ServerOAuth(Q, A);
    expect(other.tokens()).toBeUndefined();
    expect(other.tokens({ issuer: 'https://as1.example.test' })).toBeUndefined();
    expect(other.clientInformation({ issuer: 'https://as1.example.test' })).toBeUndefined();
    expect(new ServerOAuth(P, A).tokens()?.access_token).toBe('token-for-p');
    // A file of the older form (one per URL, any project) is not read by any project.
    const dir = join(state, 'toolbox', 'mcp-oauth');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = { tokens: { '': { access_token: 'old-per-url-token', token_type: 'Bearer' } } };
    const url = 'https://mcp.example.test/old';
    writeFileSync(
      join(dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`),
      JSON.stringify(old),
      {
        mode: 0o600,
      },
    );
    expect(new ServerOAuth(P, url).tokens()).toBeUndefined();
    expect(new ServerOAuth(Q, url).tokens()).toBeUndefined();
  });

  it("a real server sees project P's token on P's connection, and nothing of it on Q's (which must authorize)", async () => {
    const seen: string[] = [];
    const srv = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="test"' }).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/mcp`;
    try {
      new ServerOAuth(P, url).saveTokens({ access_token: 'token-for-p-only', token_type: 'Bearer' });
      const open = (project: string) =>
        openSession({ kind: 'http', project, url, headers: {} }, { timeoutMs: 10_000, nodeBinary: process.execPath });
      // Q has no token: its request goes out without one (the server's 401 then fails the connection).
      await expect(open(Q)).rejects.toBeInstanceOf(Error);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.join('\n')).not.toContain('token-for-p-only');
      seen.length = 0;
      await expect(open(P)).rejects.toBeInstanceOf(Error); // the test server refuses everyone
      expect(seen).toContain('Bearer token-for-p-only');
    } finally {
      srv.close();
    }
  });
});

// search_tools and call_tool over 2026-07-28 HTTP are not looked up in the registry by the
// Mcp-Param-* header check: the lookup of a name the registry does not have scans every contract
// and ranks every id for "did you mean", which cost ~0.5 s per search on 10,000 tools (issue 36
// item 7, found by `npm run bench -- mcp`). A registry tool is still looked up and checked.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { ServeCore } from '../../src/serve/core.js';
import { serveHttp } from '../../src/serve/http.js';
import { modernPost, serveProject } from './fixtures.js';

const TOKEN = 'meta-tools-http-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const proj = serveProject();
afterAll(() => proj.cleanup());

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(): Promise<{ url: string; core: ServeCore }> {
  const core = new ServeCore(resolveProject({ cwd: proj.dir, registry: proj.registry }), {
    expose: 'search',
    caller: {},
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });
  await core.start();
  const ac = new AbortController();
  let done!: Promise<void>;
  const url = await new Promise<string>((res, rej) => {
    done = serveHttp(core, { port: 0, host: '127.0.0.1', token: TOKEN, signal: ac.signal, onListening: res });
    done.catch(rej);
  });
  stop = async () => {
    ac.abort();
    await done;
    await core.close();
  };
  return { url, core };
}

describe('meta tools over 2026-07-28 HTTP', () => {
  it('search_tools and call_tool are answered without a registry lookup of their own names', async () => {
    const { url, core } = await start();
    const find = vi.spyOn(core.runtime, 'find');
    const s = await modernPost(
      url,
      'tools/call',
      { name: 'search_tools', arguments: { query: 'echo a text' } },
      {
        headers: AUTH,
      },
    );
    expect(s.status).toBe(200);
    const found = (s.final?.result?.structuredContent?.tools as { name: string }[]).map((t) => t.name);
    expect(found).toContain('echo_text');
    const c = await modernPost(
      url,
      'tools/call',
      { name: 'call_tool', arguments: { id: 'echo_text', arguments: { text: 'hi' } } },
      { headers: AUTH, id: 2 },
    );
    expect(c.status).toBe(200);
    expect(c.final?.result?.structuredContent).toEqual({ echo: 'hi' });
    const names = find.mock.calls.map((a) => a[0]);
    expect(names).not.toContain('search_tools');
    expect(names).not.toContain('call_tool');
    // The found tool itself is still looked up (to check its Mcp-Param-* headers, then to call it).
    const d = await modernPost(
      url,
      'tools/call',
      { name: 'echo_text', arguments: { text: 'yo' } },
      {
        headers: AUTH,
        id: 3,
      },
    );
    expect(d.final?.result?.structuredContent).toEqual({ echo: 'yo' });
    expect(find.mock.calls.map((a) => a[0])).toContain('echo_text');
  }, 60_000);
});

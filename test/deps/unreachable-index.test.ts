// An index that never answers, or refuses, ends pip and npm in bounded time, naming the index and
// what to do (issue 38): `deps --install` sat silent for 8 min 47 s on one. Real pip and npm against
// real local TCP ports: one that accepts and never answers, one that is closed. Nothing leaves loopback.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';
import { contract, PY_LOADER } from './fixtures.js';

let hole: Server;
const held: Socket[] = [];
let holePort = 0;
let closedPort = 0;

const listen = (s: Server) =>
  new Promise<number>((res) => s.listen(0, '127.0.0.1', () => res((s.address() as { port: number }).port)));

beforeAll(async () => {
  hole = createServer((c) => {
    held.push(c); // accepted, never answered
    c.on('error', () => {});
  });
  holePort = await listen(hole);
  const gone = createServer();
  closedPort = await listen(gone);
  await new Promise((r) => gone.close(r));
});
afterAll(async () => {
  for (const c of held) c.destroy();
  await new Promise((r) => hole.close(r));
});

describe('pip (toolbox deps --install) against an unreachable index', () => {
  it.each([
    ['accepts and never answers', () => holePort, 'timed out'],
    ['is closed', () => closedPort, 'refused the connection'],
  ])(
    'an index that %s: failed, naming it, with what to do',
    async (_what, port, why) => {
      const p = tempProject({
        'pkg/__init__.py': '',
        'pkg/mod.py': 'def run():\n    return 1\n',
        'tool_registry/t.yaml': contract('t', PY_LOADER, 'requires: { python: [toolbox-absent-pkg-zz9] }'),
      });
      try {
        const index = `http://127.0.0.1:${port()}`;
        const r = await cli(['deps', '--install', 't', '--json'], {
          cwd: p.dir,
          env: {
            PIP_INDEX_URL: `${index}/simple`,
            PIP_EXTRA_INDEX_URL: '',
            PIP_FIND_LINKS: '',
            PIP_CONFIG_FILE: '/dev/null',
          },
        });
        expect(r.code).toBe(1);
        const t = r.json.install.find((i: { id: string }) => i.id === 't');
        expect(t.status).toBe('failed');
        expect(t.error).toContain(`the package index ${index} ${why}`);
        expect(t.fix).toContain('PIP_INDEX_URL');
      } finally {
        p.cleanup();
      }
    },
    60_000,
  ); // the bound: pip gives up within a minute (10 s × 2 tries here)
});

describe('npm (toolbox import mcp --npm) against an unreachable registry', () => {
  it.each([
    ['accepts and never answers', () => holePort, 'timed out'],
    ['is closed', () => closedPort, 'refused the connection'],
  ])(
    'a registry that %s: server_install_failed naming it, with what to do',
    async (_what, port, why) => {
      const p = tempProject({ 'tool_registry/.keep': '' });
      try {
        const registry = `http://127.0.0.1:${port()}`;
        const r = await cli(['import', 'mcp', '--json', '--npm', 'toolbox-absent-server-zz9'], {
          cwd: p.dir,
          env: { npm_config_registry: `${registry}/` },
        });
        expect(r.code).toBe(6);
        expect(r.errorJson.error.code).toBe('server_install_failed');
        expect(r.errorJson.error.message).toContain(`the npm registry ${registry} ${why}`);
        expect(r.errorJson.error.hint).toContain('npm config set registry');
      } finally {
        p.cleanup();
      }
    },
    60_000,
  );
});

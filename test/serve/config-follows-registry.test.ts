// Config follows the registry: with --registry /abs/path from another folder, the toolbox.config.yaml
// at or above the registry is the one in force (every command), and doctor / serve --verbose say so.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveProject } from '../../src/config.js';
import { cli, tempProject } from '../helpers.js';
import { httpServe, stdioClient } from './fixtures.js';

const MAILER = `id: send_note
name: Send note
description: Send a short note to a colleague by email. Use when the user asks to email someone.
schema: { type: object, properties: { to: { type: string, description: address } }, required: [to] }
loader: command
loader_config: { argv: [echo, "sent to {{to}}"] }
permissions: { roles: [mailer] }
`;

// The registry's own project: its config gives the default role that may use send_note.
const proj = tempProject({
  'toolbox.config.yaml': 'permissions:\n  default_role: mailer\nselect:\n  top: 3\n',
  'tool_registry/send_note.yaml': MAILER,
});
// Another project the client happens to start from, with a config that says otherwise.
const other = tempProject({
  'toolbox.config.yaml': 'permissions:\n  default_role: guest\n',
  'tool_registry/.keep': '',
});
const registry = join(proj.dir, 'tool_registry');
afterAll(() => {
  proj.cleanup();
  other.cleanup();
});

describe('config follows --registry', () => {
  it('resolveProject reads the config beside the registry, not the one above the current folder', () => {
    const p = resolveProject({ cwd: other.dir, registry });
    expect(p.configFile).toBe(join(proj.dir, 'toolbox.config.yaml'));
    expect(p.config.permissions?.default_role).toBe('mailer');
    // Without --registry the current folder's project still wins, and --config still overrides.
    expect(resolveProject({ cwd: other.dir }).configFile).toBe(join(other.dir, 'toolbox.config.yaml'));
    const forced = resolveProject({ cwd: other.dir, registry, config: join(other.dir, 'toolbox.config.yaml') });
    expect(forced.config.permissions?.default_role).toBe('guest');
  });

  it('every command uses it: list, select and run from another folder', async () => {
    const sel = await cli(['select', 'email a note to a colleague', '--json', '--registry', registry], {
      cwd: other.dir,
    });
    expect(sel.json.results.map((r: { id: string }) => r.id)).toContain('send_note');
    const run = await cli(['run', 'send_note', '--to', 'ann', '--json', '--registry', registry], { cwd: other.dir });
    expect(run.code).toBe(0);
    expect(run.json.result).toBe('sent to ann');
  });

  it('doctor says which config is in force', async () => {
    const r = await cli(['doctor', '--json', '--registry', registry], { cwd: other.dir });
    expect(r.json.registry.config).toBe(join(proj.dir, 'toolbox.config.yaml'));
    const none = tempProject({
      'tool_registry/send_note.yaml': MAILER.replace('permissions: { roles: [mailer] }\n', ''),
    });
    try {
      const d = await cli(['doctor', '--json', '--registry', join(none.dir, 'tool_registry')], { cwd: other.dir });
      expect(d.json.registry.found).toBe(true);
      expect(d.json.registry.config).toBeUndefined();
    } finally {
      none.cleanup();
    }
  });

  it('serve over stdio (started from another folder) applies the registry config and says so with --verbose', async () => {
    const c = await stdioClient(registry, ['--expose', 'all', '--verbose'], other.dir);
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['send_note']);
      const r = await c.client.callTool({ name: 'send_note', arguments: { to: 'bo' } });
      expect(r.isError).toBeFalsy();
      await expect.poll(() => c.stderr()).toContain(`config ${join(proj.dir, 'toolbox.config.yaml')}`);
    } finally {
      await c.client.close();
    }
  });

  it('serve over HTTP (started from the repository, which has its own config) applies the registry config', async () => {
    const srv = await httpServe(registry, ['--expose', 'all']);
    const client = new Client({ name: 'cfg-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: srv.headers } }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['send_note']);
    } finally {
      await client.close();
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  });
});

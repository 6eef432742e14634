// Destructive siblings first only when asked (issue 35 item 2): among get/list/create/update/delete/
// archive tools of one object, a tool that deletes, archives, cancels, sends, pays or overwrites
// ranks first only when the query asks for that action; otherwise a read-only sibling leads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { openSelector, selectTools, type Selector } from '../../src/select/index.js';
import { askedKinds, destructiveKind } from '../../src/select/destructive.js';
import type { ToolContract } from '../../src/contract/types.js';
import { tempProject } from '../helpers.js';

const OBJECTS: Record<string, string> = {
  leave_request: 'leave request (time off an employee asked for)',
  invoice: 'invoice of a customer',
  ticket: 'support ticket',
};
const VERBS: Record<string, string> = {
  // Registry order puts the destructive ones first: without the rule, ties would go to them.
  archive: 'Archive a {o} so that it no longer shows in lists.',
  delete: 'Delete a {o}.',
  create: 'Create a new {o}.',
  update: 'Update the fields of a {o}.',
  get: 'Get one {o} by its id.',
  list: 'List {o}s, filtered by status (pending, approved, rejected).',
};

const contract = (id: string, description: string, extra = 'loader: command\nloader_config: { argv: ["true"] }') =>
  `id: ${id}\nname: ${id.replace(/_/g, ' ')}\ndescription: ${JSON.stringify(description)}\n` +
  'schema: { type: object, properties: { id: { type: string, description: the id }, status: { type: string } } }\n' +
  `${extra}\n`;

let p: ReturnType<typeof tempProject>;
let sel: Selector;
beforeAll(async () => {
  p = tempProject();
  for (const [o, d] of Object.entries(OBJECTS))
    for (const [v, t] of Object.entries(VERBS))
      p.write(`tool_registry/${v}_${o}.yaml`, contract(`${v}_${o}`, t.replace('{o}', d)));
  // The same endpoint path with two methods: the words are the same, the method is not.
  const http = (m: string) => `loader: http\nloader_config: { url: "https://api.example.com/me/albums", method: ${m} }`;
  p.write(
    'tool_registry/albums_delete.yaml',
    contract('me_albums_a', 'Albums in the current user music library: remove one or more albums.', http('DELETE')),
  );
  p.write(
    'tool_registry/albums_put.yaml',
    contract('me_albums_b', 'Albums in the current user music library: save one or more albums.', http('PUT')),
  );
  p.write(
    'tool_registry/a_disk.yaml',
    contract(
      'disk_tool',
      'Disk volumes of the server.',
      'annotations: { destructiveHint: true }\nloader: command\nloader_config: { argv: ["true"] }',
    ),
  );
  p.write('tool_registry/disk_info.yaml', contract('disk_info', 'Disk volumes of the server.'));
  sel = await openSelector(resolveProject({ cwd: p.dir }));
});
afterAll(() => p?.cleanup());

const first = async (q: string) => (await sel.rank(q, { top: 5 })).results[0]?.id;

describe('a destructive sibling leads only when the query asks for its action', () => {
  const table: [string, string][] = [
    ['show me the pending leave requests', 'list_leave_request'],
    ['leave request 42', 'get_leave_request'],
    ['the invoice of ACME', 'get_invoice'],
    ['archive the leave request 42', 'archive_leave_request'],
    ['delete ticket 7', 'delete_ticket'],
    ['remove support ticket 7', 'delete_ticket'],
    ['删除工单 7', 'delete_ticket'],
    ['create an invoice for ACME', 'create_invoice'],
    ['Add album Mojito to my music library', 'me_albums_b'],
    ['remove the album Mojito from my music library', 'me_albums_a'],
    ['disk volumes', 'disk_info'],
  ];
  it.each(table)('%s → %s', async (q, want) => {
    expect(await first(q)).toBe(want);
  });

  it('never drops the destructive tool from the list, and --explain says why it is not first', async () => {
    const s = await selectTools(resolveProject({ cwd: p.dir }), 'pending leave requests', {
      top: 6,
      explain: ['archive_leave_request'],
    });
    const ids = s.results.map((r) => r.id);
    expect(ids[0]).toBe('list_leave_request');
    expect(ids).toContain('archive_leave_request');
    expect(s.results.find((r) => r.id === 'archive_leave_request')?.demoted).toMatchObject({ kind: 'archive' });
    expect(s.explained![0]!.detail).toMatch(/archive, not asked for: score ×0\.7/);
  });
});

describe('verb classes', () => {
  const c = (o: Partial<ToolContract>) =>
    ({ id: 'x', description: '', schema: {}, loader: 'command', ...o }) as ToolContract;
  it('reads the kind from the annotations, the http method and the leading verb of the id or name', () => {
    expect(destructiveKind(c({ id: 'gmail_send_message' }))?.kind).toBe('send');
    expect(destructiveKind(c({ id: 'delete_user' }))?.kind).toBe('delete');
    expect(destructiveKind(c({ id: 'x', name: '删除文件' }))?.kind).toBe('delete');
    expect(destructiveKind(c({ id: 'x', loader: 'http', loader_config: { method: 'delete' } } as never))?.kind).toBe(
      'delete',
    );
    expect(destructiveKind(c({ id: 'x', annotations: { destructiveHint: true } }))?.kind).toBe('destructive');
    expect(destructiveKind(c({ id: 'delete_user', annotations: { readOnlyHint: true } }))).toBeUndefined();
    // A noun that is also a verb of the send kind is no verb of an id: get_email reads.
    expect(destructiveKind(c({ id: 'get_email' }))).toBeUndefined();
    expect(destructiveKind(c({ id: 'list_users' }))).toBeUndefined();
  });
  it('reads what a query asks for in both languages', () => {
    expect([...askedKinds('please cancel my order and refund me')].sort()).toEqual(['cancel', 'pay']);
    expect([...askedKinds('給張三發一封郵件')]).toEqual(['send']);
    expect([...askedKinds('show me the pending leave requests')]).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { canUse, callerRoles } from '../../src/policy/permissions.js';
import type { ToolboxConfig } from '../../src/config.js';
import type { ToolContract } from '../../src/contract/types.js';

const tool = (id: string, permissions?: ToolContract['permissions']) => ({ id, permissions }) as ToolContract;
const config: ToolboxConfig = {
  permissions: {
    default_role: 'assistant',
    users: { alice: ['admin'], bob: ['guest'] },
    tools: { 'send_*': ['admin'], 'delete_*': ['admin', 'ops'] },
  },
};

describe('permissions', () => {
  it("resolves roles: --role wins, then the user's roles, then the default role", () => {
    expect(callerRoles({ role: 'ops', user: 'alice' }, config)).toEqual(['ops']);
    expect(callerRoles({ user: 'alice' }, config)).toEqual(['admin']);
    expect(callerRoles({ user: 'nobody' }, config)).toEqual([]);
    expect(callerRoles({}, config)).toEqual(['assistant']);
  });

  it.each([
    // [case, contract permissions, id, caller, allowed]
    ['open tool, no policy', undefined, 'calculator', {}, true],
    ['contract roles allow the default role', ['assistant'], 'notes', {}, true],
    ['contract roles refuse another role', ['admin'], 'notes', { role: 'guest' }, false],
    ['contract users allow a listed user', { users: ['bob'] }, 'notes', { user: 'bob' }, true],
    ['contract users refuse anyone else', { users: ['bob'] }, 'notes', { user: 'alice' }, false],
    ['policy restricts a tool the contract leaves open', undefined, 'send_sms', {}, false],
    ['policy lets its role through', undefined, 'send_sms', { user: 'alice' }, true],
    ['policy and contract must both allow', { roles: ['assistant'] }, 'send_email', {}, false],
    ['both allow', { roles: ['assistant', 'admin'] }, 'send_email', { role: 'admin' }, true],
    ['any matching policy entry must allow', undefined, 'delete_user', { role: 'ops' }, true],
  ] as const)('%s', (_name, perms, id, caller, allowed) => {
    expect(canUse(tool(id, perms as ToolContract['permissions']), caller, config)).toBe(allowed);
  });
});

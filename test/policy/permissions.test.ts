import { describe, expect, it } from 'vitest';
import { assertCanUse, canUse, callerRoles } from '../../src/policy/permissions.js';
import { ToolboxError } from '../../src/errors.js';
import type { ToolboxConfig } from '../../src/config.js';
import type { ToolContract } from '../../src/contract/types.js';

const tool = (id: string, permissions?: ToolContract['permissions']) => ({ id, permissions }) as ToolContract;
const config: ToolboxConfig = {
  permissions: {
    default_role: 'assistant',
    users: { alice: ['admin'], bob: ['guest'], carol: ['guest', 'admin'] },
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
    // A caller with several roles needs one of them to fit, not all.
    ['one of several roles fits the contract', ['admin'], 'notes', { user: 'carol' }, true],
    ['one of several roles fits the policy', undefined, 'send_sms', { user: 'carol' }, true],
    // A glob is a glob: its dot is no wildcard, `?` one character, and it matches the whole id.
    ['a glob matches the whole id only', undefined, 'resend_sms', {}, true],
  ] as const)('%s', (_name, perms, id, caller, allowed) => {
    expect(canUse(tool(id, perms as ToolContract['permissions']), caller, config)).toBe(allowed);
  });

  it('glob characters: `?` is one character, regex characters are literal', () => {
    const c: ToolboxConfig = { permissions: { tools: { 'db.drop_?': ['admin'] } } };
    expect(canUse(tool('db.drop_x'), {}, c)).toBe(false);
    expect(canUse(tool('dbXdrop_x'), {}, c)).toBe(true);
    expect(canUse(tool('db.drop_xy'), {}, c)).toBe(true);
    expect(canUse(tool('db.drop_x'), { role: 'admin' }, c)).toBe(true);
  });

  it('a user with no permissions section has no roles', () => {
    expect(callerRoles({ user: 'alice' }, {})).toEqual([]);
    expect(callerRoles({}, {})).toEqual([]);
    expect(callerRoles({}, { role: 'ops' })).toEqual(['ops']);
    expect(callerRoles({}, { user: 'alice', permissions: config.permissions })).toEqual(['admin']);
  });

  it('assertCanUse refuses with permission_denied (exit 7), naming the caller, and lets an allowed caller through', () => {
    const refused = (caller: { user?: string; role?: string }) => {
      try {
        assertCanUse(tool('send_sms'), caller, config);
      } catch (e) {
        expect(e).toBeInstanceOf(ToolboxError);
        expect((e as ToolboxError).code).toBe('permission_denied');
        expect((e as ToolboxError).exitCode).toBe(7);
        return (e as ToolboxError).message;
      }
      return 'allowed';
    };
    expect(refused({ role: 'guest' })).toBe("role 'guest' may not use tool 'send_sms'");
    expect(refused({ user: 'bob' })).toBe("user 'bob' may not use tool 'send_sms'");
    expect(refused({})).toBe("an anonymous caller may not use tool 'send_sms'");
    expect(refused({ user: 'alice' })).toBe('allowed');
  });
});

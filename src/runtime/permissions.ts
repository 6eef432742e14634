import type { ToolboxConfig } from '../config.js';
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';

/** Who is asking: from --user / --role, or the config's defaults. */
export interface Caller { user?: string; role?: string }

/** The roles a caller has: --role wins; else the config's roles for --user; else default_role. */
export function callerRoles(caller: Caller, config: ToolboxConfig): string[] {
  const role = caller.role ?? config.role;
  if (role) return [role];
  const user = caller.user ?? config.user;
  if (user) return config.permissions?.users?.[user] ?? [];
  return config.permissions?.default_role ? [config.permissions.default_role] : [];
}

function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}

/**
 * Whether the caller may use the tool. A tool with no `permissions` (and no matching entry in the
 * config's `permissions.tools` policy) is open to everyone; otherwise the caller needs one of the
 * listed roles, or to be one of the listed users.
 */
export function canUse(contract: ToolContract, caller: Caller, config: ToolboxConfig): boolean {
  const p = contract.permissions;
  const policy = config.permissions?.tools;
  let roles: string[] | undefined;
  let users: string[] | undefined;
  if (Array.isArray(p)) roles = p;
  else if (p) { roles = p.roles; users = p.users; }
  if (policy) {
    for (const [pattern, rs] of Object.entries(policy)) {
      if (globToRegExp(pattern).test(contract.id)) roles = [...(roles ?? []), ...rs];
    }
  }
  if (roles === undefined && users === undefined) return true;
  const user = caller.user ?? config.user;
  if (user && users?.includes(user)) return true;
  const have = callerRoles(caller, config);
  return have.some((r) => roles?.includes(r));
}

/** Throw permission_denied (exit 7) unless the caller may use the tool. */
export function assertCanUse(contract: ToolContract, caller: Caller, config: ToolboxConfig): void {
  if (canUse(contract, caller, config)) return;
  const who = caller.role ? `role '${caller.role}'` : caller.user ? `user '${caller.user}'` : 'an anonymous caller';
  throw new ToolboxError('permission_denied', `${who} may not use tool '${contract.id}'`, {
    exitCode: ExitCode.permission,
    hint: 'Pass --user or --role with access, or change the tool\'s `permissions` (or `permissions.tools` in toolbox.config.yaml).',
  });
}

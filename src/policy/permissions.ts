import type { ToolboxConfig } from '../config.js';
import type { ToolContract } from '../contract/types.js';
import { ExitCode, ToolboxError } from '../errors.js';

/** Who is asking: from --user / --role, or the config's defaults. */
export interface Caller {
  user?: string;
  role?: string;
}

/** The roles a caller has: --role wins; else the config's roles for --user; else default_role. */
export function callerRoles(caller: Caller, config: ToolboxConfig): string[] {
  const role = caller.role ?? config.role;
  if (role) return [role];
  const user = caller.user ?? config.user;
  if (user) return config.permissions?.users?.[user] ?? [];
  return config.permissions?.default_role ? [config.permissions.default_role] : [];
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    '^' +
      glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.') +
      '$',
  );
}

/**
 * Whether the caller may use the tool. Two layers, both must allow:
 * - the contract's own `permissions` (roles and/or users); a tool without it is open to everyone;
 * - every entry of the config's `permissions.tools` policy whose id or glob matches the tool: the
 *   caller needs one of that entry's roles. The policy only ever restricts, so a registry owner
 *   can lock tools down without editing their contracts.
 */
export function canUse(contract: ToolContract, caller: Caller, config: ToolboxConfig): boolean {
  const have = callerRoles(caller, config);
  const user = caller.user ?? config.user;
  const p = contract.permissions;
  if (p) {
    const roles = Array.isArray(p) ? p : (p.roles ?? []);
    const users = Array.isArray(p) ? [] : (p.users ?? []);
    if (!(user && users.includes(user)) && !have.some((r) => roles.includes(r))) return false;
  }
  for (const [pattern, rs] of Object.entries(config.permissions?.tools ?? {})) {
    if (globToRegExp(pattern).test(contract.id) && !have.some((r) => rs.includes(r))) return false;
  }
  return true;
}

/** Throw permission_denied (exit 7) unless the caller may use the tool. */
export function assertCanUse(contract: ToolContract, caller: Caller, config: ToolboxConfig): void {
  if (canUse(contract, caller, config)) return;
  const who = caller.role ? `role '${caller.role}'` : caller.user ? `user '${caller.user}'` : 'an anonymous caller';
  throw new ToolboxError('permission_denied', `${who} may not use tool '${contract.id}'`, {
    exitCode: ExitCode.permission,
    hint: "Pass --user or --role with access, or change the tool's `permissions` (or `permissions.tools` in toolbox.config.yaml).",
  });
}

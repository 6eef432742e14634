// Whether a tool may reach host:port, decided once per connection by the egress proxy: names are
// resolved here (never by the tool), and every resolved address is checked before the one the
// proxy then dials, so a second lookup cannot swap in another address (no DNS-rebinding window).
import { lookup as dnsLookup } from 'node:dns/promises';
import { classify, isLocalName, parseAddress, sameAddress, type AddressClass, type ParsedAddress } from './address.js';

/** What one tool may reach: its contract's `sandbox.network` and the user's network grants. */
export interface EgressPolicy {
  /** The tool's id, for messages. */
  tool: string;
  /** `true`: any public host; a list: only these (`api.example.com`, `*.github.com`, `host:port`). */
  hosts: true | readonly string[];
  /** The user's grants.yaml entries for this tool (`127.0.0.1:6379`, `db.internal`): any address class. */
  grants: readonly string[];
  /** Where `sandbox.network` is set (the contract file), for messages. */
  contractFile?: string;
  /** The project's real path: the key of a grant in grants.yaml. */
  project?: string;
}

/** A refused destination, as the proxy logs it and the runtime reports it. */
export interface Refusal {
  host: string;
  port: number;
  /** not_listed: not in sandbox.network; address: a non-public address (or a name that has only those). */
  reason: 'not_listed' | 'address';
  address?: string;
  addressClass?: AddressClass;
  message: string;
  /** The setting or grant that would allow it. */
  hint: string;
}

const LOCAL = ['127.0.0.1', '::1'];

export type Resolver = (name: string) => Promise<string[]>;

/** The system resolver, every address (both families). */
export const systemResolver: Resolver = async (name) =>
  (await dnsLookup(name, { all: true, verbatim: true })).map((a) => a.address);

/** One `host[:port]` entry (a list entry or a grant). IPv6 literals with a port are bracketed. */
export function parseHostEntry(entry: string): { host: string; port?: number } | undefined {
  const e = entry.trim().toLowerCase();
  let host = e;
  let port: string | undefined;
  const br = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (br) [host, port] = [br[1]!, br[2]];
  else if ((e.match(/:/g) ?? []).length === 1) [host, port] = e.split(':') as [string, string];
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return undefined;
  const p = port === undefined ? undefined : Number(port);
  if (p !== undefined && (p < 1 || p > 65535)) return undefined;
  host = host.replace(/\.$/, '');
  if (!host) return undefined;
  return { host, ...(p !== undefined ? { port: p } : {}) };
}

/** A name matches `name` exactly, or `*.suffix` for any name below suffix (not suffix itself). */
function nameMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
  return pattern === name;
}

function entryMatches(entry: string, host: string, literal: ParsedAddress | undefined, port: number): boolean {
  const e = parseHostEntry(entry);
  if (!e || (e.port !== undefined && e.port !== port)) return false;
  const a = parseAddress(e.host);
  if (a) return literal !== undefined && sameAddress(a, literal);
  return literal === undefined && nameMatches(e.host, host);
}

function grantOf(grants: readonly string[], addr: ParsedAddress, port: number): boolean {
  return grants.some((g) => {
    const e = parseHostEntry(g);
    const a = e && parseAddress(e.host);
    return !!a && sameAddress(a, addr) && (e.port === undefined || e.port === port);
  });
}

const GRANTS = '~/.config/toolbox/grants.yaml';
function grantHint(p: EgressPolicy, what: string): string {
  return `Only your own grant can open it: in ${GRANTS}, \`projects: { ${JSON.stringify(p.project ?? '<project real path>')}: { ${p.tool}: { network: [${JSON.stringify(what)}] } } }\` (a contract cannot grant itself the host's or the network's own services).`;
}

/** The host as the policy sees it, and whether its list (or the user's grant) names it. */
function listCheck(policy: EgressPolicy, rawHost: string, port: number) {
  const host = rawHost
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const literal = parseAddress(host);
  const shown = literal ? literal.text : host;
  const dest = `${literal?.family === 6 ? `[${shown}]` : shown}:${port}`;
  const byNameGrant = !literal && policy.grants.some((g) => entryMatches(g, host, undefined, port));
  // The user's grant of an address or name holds whatever the contract's list says.
  const listed =
    policy.hosts === true ||
    policy.hosts.some((h) => entryMatches(h, host, literal, port)) ||
    byNameGrant ||
    (literal !== undefined && grantOf(policy.grants, literal, port));
  const refusal: Refusal | undefined = listed
    ? undefined
    : {
        host: shown,
        port,
        reason: 'not_listed',
        message: `tool '${policy.tool}' may not reach ${dest}: it is not in its sandbox.network list`,
        hint: `If the tool needs it, add ${JSON.stringify(literal ? dest : host)} to \`sandbox: { network: [...] }\`${policy.contractFile ? ` in ${policy.contractFile}` : ''}.`,
      };
  return { host, literal, shown, dest, byNameGrant, refusal };
}

/**
 * The refusal when `policy`'s host list does not name `host:port` (undefined when it does, or when
 * the policy is `true`): what toolbox's own requests (the http loader) check before they go out.
 */
export function unlisted(policy: EgressPolicy, rawHost: string, port: number): Refusal | undefined {
  return listCheck(policy, rawHost, port).refusal;
}

export type Decision =
  { ok: true; address: ParsedAddress } | { ok: false; refusal: Refusal } | { ok: false; unreachable: string };

/** Whether `policy` lets the tool reach `rawHost:port`, and the one address to dial. */
export async function decide(
  policy: EgressPolicy,
  rawHost: string,
  port: number,
  resolve: Resolver,
): Promise<Decision> {
  const { host, literal, dest, byNameGrant, refusal } = listCheck(policy, rawHost, port);
  if (refusal) return { ok: false, refusal };
  const refuse = (r: Omit<Refusal, 'host' | 'port'>): Decision => ({
    ok: false,
    refusal: { host: literal ? literal.text : host, port, ...r },
  });
  let addresses: ParsedAddress[];
  if (literal) addresses = [literal];
  // localhost & co mean this host whatever a resolver says (RFC 6761).
  else if (isLocalName(host)) addresses = LOCAL.map((a) => parseAddress(a)!);
  else {
    try {
      addresses = (await resolve(host)).map((a) => parseAddress(a)).filter((a): a is ParsedAddress => !!a);
    } catch {
      addresses = [];
    }
    // Not a refusal: offline, or a name that does not exist (the proxy answers 502).
    if (!addresses.length) return { ok: false, unreachable: `${host} does not resolve` };
  }
  // Only a checked address is ever dialled: a public one, or one the user granted. A name whose
  // every address is refused is refused, naming the first.
  const usable = addresses.find((a) => !classify(a) || byNameGrant || grantOf(policy.grants, a, port));
  if (usable) return { ok: true, address: usable };
  const a = addresses[0]!;
  const cls = classify(a)!;
  const to = a.family === 6 ? `[${a.text}]:${port}` : `${a.text}:${port}`;
  return refuse({
    reason: 'address',
    address: a.text,
    addressClass: cls,
    message: `tool '${policy.tool}' may not reach ${dest}${literal ? '' : isLocalName(host) ? ' (the name means this host)' : ` (it resolves to ${a.text})`}: a ${cls} address`,
    hint: grantHint(policy, to),
  });
}

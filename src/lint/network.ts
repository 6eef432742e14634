// validate's rules for `sandbox.network`: a contract cannot list the host's or the network's own
// services (loopback, private, link-local addresses, names such as localhost): only the user's
// grants.yaml opens those (error at the entry's line:column). `network: true` when the contract
// names one service is wider than it needs (warning: list the host).
import type { HttpConfig, McpConfig, ToolContract } from '../contract/types.js';
import { classify, isLocalName, parseAddress } from '../sandbox/egress/address.js';
import { parseHostEntry } from '../sandbox/egress/policy.js';

export interface NetworkFinding {
  rule: 'sandbox-network-private' | 'sandbox-network-broad';
  severity: 'error' | 'warning';
  path: (string | number)[];
  message: string;
  hint: string;
}

/** Host names a text names: in URLs, or as bare names under a common top-level domain. */
function hostsIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\bhttps?:\/\/([A-Za-z0-9.-]+)/g)) found.add(m[1]!.toLowerCase().replace(/\.$/, ''));
  for (const m of text.matchAll(/\b((?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|gov|edu|info|cloud))\b/gi))
    found.add(m[1]!.toLowerCase());
  return [...found].filter((h) => !h.includes('${') && h.includes('.'));
}

export function networkFindings(c: ToolContract): NetworkFinding[] {
  const net = c.sandbox?.network;
  const out: NetworkFinding[] = [];
  if (Array.isArray(net)) {
    net.forEach((entry, i) => {
      const e = parseHostEntry(entry);
      if (!e) return;
      const a = parseAddress(e.host);
      const cls = a ? classify(a) : isLocalName(e.host) ? 'loopback' : undefined;
      if (!cls) return;
      out.push({
        rule: 'sandbox-network-private',
        severity: 'error',
        path: ['sandbox', 'network', i],
        message: `tool '${c.id}' lists ${entry} in sandbox.network: a ${cls} address; a contract cannot grant itself the host's or the network's own services`,
        hint: `Remove it from the contract. If you trust the tool with it, grant it in your own ~/.config/toolbox/grants.yaml: \`projects: { <project real path>: { ${c.id}: { network: [${JSON.stringify(a?.family === 6 ? `[${a.text}]${e.port ? `:${e.port}` : ''}` : entry.replace(/^localhost/i, '127.0.0.1'))}] } } }\`.`,
      });
    });
  }
  if (net === true) {
    const url =
      c.loader === 'http'
        ? (c.loader_config as unknown as HttpConfig).url
        : c.loader === 'mcp'
          ? (c.loader_config as unknown as McpConfig).url
          : undefined;
    const hosts = [...new Set([...hostsIn(c.description), ...(url ? hostsIn(url) : [])])];
    if (hosts.length === 1)
      out.push({
        rule: 'sandbox-network-broad',
        severity: 'warning',
        path: ['sandbox', 'network'],
        message: `tool '${c.id}' names one service (${hosts[0]}) but opens the whole public internet (sandbox.network: true)`,
        hint: `List the host instead: \`sandbox: { network: [${hosts[0]}] }\` (the egress proxy then refuses every other host).`,
      });
  }
  return out;
}

// Which local user opened a TCP connection to `serve --http`. Linux lists every TCP socket of the
// network namespace in /proc/net/tcp and /proc/net/tcp6 with the uid that created it; the client's
// end of our connection is the entry whose local address is the peer's and whose remote address is
// ours. One read of those files per connection (cached on the socket), no native code, no privileges.
import { open, readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { isIPv4, isIPv6, type Socket } from 'node:net';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;
const ESTABLISHED = '01';
const LE = endianness() === 'LE';

/** 4 address bytes as the kernel prints one 32-bit word: `%08X` of the word in host byte order. */
function word(b: number[]): string {
  const w = LE ? [b[3]!, b[2]!, b[1]!, b[0]!] : b;
  return w
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function v4Bytes(a: string): number[] {
  return a.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (with :: and an embedded dotted quad expanded). */
function v6Bytes(a: string): number[] {
  let s = a.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const [x, y, z, w] = v4Bytes(dotted[1]!);
    s = s.slice(0, -dotted[1]!.length) + `${((x! << 8) | y!).toString(16)}:${((z! << 8) | w!).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}

/** How an address:port appears in each table (an IPv4-mapped IPv6 peer may be either kind of socket). */
function forms(addr: string, port: number): { tcp?: string; tcp6?: string } {
  const p = port.toString(16).padStart(4, '0').toUpperCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  const v4 = isIPv4(addr) ? addr : mapped?.[1];
  const out: { tcp?: string; tcp6?: string } = {};
  if (v4) out.tcp = `${word(v4Bytes(v4))}:${p}`;
  const v6 = isIPv6(addr) ? addr : v4 ? `::ffff:${v4}` : undefined;
  if (v6) {
    const b = v6Bytes(v6);
    out.tcp6 = `${[0, 4, 8, 12].map((i) => word(b.slice(i, i + 4))).join('')}:${p}`;
  }
  return out;
}

/** The uid column of `line` when it is the established entry with this local and remote address. */
function uidOf(line: string, local: string, remote: string): number | undefined {
  const f = line.trim().split(/\s+/);
  // sl local rem st tx:rx tr:when retrnsmt uid …
  if (f[1] !== local || f[2] !== remote || f[3] !== ESTABLISHED) return undefined;
  const uid = Number(f[7]);
  return Number.isInteger(uid) ? uid : undefined;
}

/** The uid of the established entry with this local and remote address, if the table text has one. */
export function findUid(table: string, local: string, remote: string): number | undefined {
  for (const line of table.split('\n')) {
    const uid = uidOf(line, local, remote);
    if (uid !== undefined) return uid;
  }
  return undefined;
}

/**
 * Scan a table a page at a time and stop at the entry (the kernel makes the text as it is read, so
 * a connection found early costs only the pages before it). Undefined when absent or unreadable.
 */
async function scan(table: string, local: string, remote: string): Promise<number | undefined> {
  let fh;
  try {
    fh = await open(table, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    let rest = '';
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return rest ? uidOf(rest, local, remote) : undefined;
      const lines = (rest + buf.toString('latin1', 0, bytesRead)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        // Cheap test before splitting: the local address is the line's second field.
        if (!line.includes(local)) continue;
        const uid = uidOf(line, local, remote);
        if (uid !== undefined) return uid;
      }
    }
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/**
 * The uid that owns the client's end of `socket`, when the client is on this machine and in this
 * network namespace; undefined when no such socket is listed (a remote peer, a closed connection,
 * no /proc). Reads the tables afresh: a connection's 4-tuple is unique while it is open, and the
 * socket's owner is fixed when the client creates it.
 */
export async function peerUid(socket: Pick<Socket, 'remoteAddress' | 'remotePort' | 'localAddress' | 'localPort'>) {
  const { remoteAddress, remotePort, localAddress, localPort } = socket;
  if (!remoteAddress || !remotePort || !localAddress || !localPort) return undefined;
  const peer = forms(remoteAddress, remotePort);
  const ours = forms(localAddress, localPort);
  for (const [i, table] of TABLES.entries()) {
    const kind = i === 0 ? 'tcp' : 'tcp6';
    const l = peer[kind];
    const r = ours[kind];
    if (!l || !r) continue;
    const uid = await scan(table, l, r);
    if (uid !== undefined) return uid;
  }
  return undefined;
}

/** Whether this machine lists its TCP sockets with their owners (Linux with /proc mounted). */
export async function peerUidAvailable(): Promise<boolean> {
  try {
    const head = (await readFile(TABLES[0], 'latin1')).split('\n', 1)[0] ?? '';
    return /\blocal_address\b/.test(head) && /\buid\b/.test(head);
  } catch {
    return false;
  }
}

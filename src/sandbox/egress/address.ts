// What an address is, in every spelling a client or a resolver can hand the egress proxy: IPv4 as
// inet_aton reads it (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1), IPv6 with
// brackets or a zone, IPv4 inside IPv6 (mapped ::ffff:127.0.0.1, compatible ::127.0.0.1, NAT64
// 64:ff9b::7f00:1, 6to4 2002:7f00:1::). The proxy refuses every class below unless the user granted
// the address: a tool reaches the public internet, never the host's or the network's own services.
import { isIPv6 } from 'node:net';

/** Why an address is not public. */
export type AddressClass =
  'loopback' | 'private' | 'link-local' | 'cgnat' | 'multicast' | 'unspecified' | 'broadcast' | 'reserved';

/** One literal address, normalised: `family` 4 or 6, `bytes` 4 or 16, `text` canonical. */
export interface ParsedAddress {
  family: 4 | 6;
  bytes: number[];
  text: string;
}

/** One part of an inet_aton address: decimal, 0-prefixed octal or 0x hex. */
function atonPart(s: string): number | undefined {
  if (/^0[xX][0-9a-fA-F]*$/.test(s)) return s.length === 2 ? 0 : parseInt(s.slice(2), 16);
  if (/^0[0-7]*$/.test(s)) return parseInt(s, 8);
  if (/^[1-9][0-9]*$/.test(s)) return parseInt(s, 10);
  return undefined;
}

/** IPv4 the way inet_aton (and so curl, Python's socket, glibc) reads it: 1 to 4 parts, the last fills the rest. */
function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const nums = parts.map(atonPart);
  if (nums.some((n) => n === undefined || !Number.isFinite(n))) return undefined;
  const n = nums as number[];
  const head = n.slice(0, -1);
  if (head.some((x) => x > 255)) return undefined;
  const last = n[n.length - 1]!;
  const room = 4 - head.length;
  if (last >= 2 ** (8 * room)) return undefined;
  const tail: number[] = [];
  for (let i = room - 1; i >= 0; i--) tail.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return [...head, ...tail];
}

function parseIPv6(s: string): number[] | undefined {
  if (!isIPv6(s)) return undefined;
  // A trailing dotted IPv4 (::ffff:127.0.0.1) is two hex words.
  const text = s.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(':'),
  );
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const words = (h: string | undefined) => (h ? h.split(':').map((w) => parseInt(w, 16)) : []);
  const l = words(halves[0]);
  const r = words(halves[1]);
  const fill = 8 - l.length - r.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return undefined;
  const all = [...l, ...Array<number>(fill).fill(0), ...r];
  if (all.length !== 8 || all.some((w) => !(w >= 0 && w <= 0xffff))) return undefined;
  return all.flatMap((w) => [w >> 8, w & 255]);
}

function v6Text(b: number[]): string {
  const w: string[] = [];
  for (let i = 0; i < 16; i += 2) w.push(((b[i]! << 8) | b[i + 1]!).toString(16));
  return w.join(':');
}

/**
 * The address a host string spells, or undefined for a name. Brackets, an IPv6 zone (`%eth0`) and a
 * trailing dot are ignored.
 */
export function parseAddress(host: string): ParsedAddress | undefined {
  let h = host.trim();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  h = h.replace(/%.*$/, '');
  if (h.includes(':')) {
    const b = parseIPv6(h);
    return b ? { family: 6, bytes: b, text: v6Text(b) } : undefined;
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (!/^[0-9a-fA-FxX.]+$/.test(h) || !/^[0-9]/.test(h)) return undefined;
  const b = parseIPv4(h);
  return b ? { family: 4, bytes: b, text: b.join('.') } : undefined;
}

type Range = [prefix: number[], bits: number, cls: AddressClass];
const V4: Range[] = [
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'cgnat'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'reserved'],
  [[192, 0, 2], 24, 'reserved'],
  [[192, 88, 99], 24, 'reserved'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'reserved'],
  [[198, 51, 100], 24, 'reserved'],
  [[203, 0, 113], 24, 'reserved'],
  [[224], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240], 4, 'reserved'],
];
const V6: Range[] = [
  [[], 128, 'unspecified'], // ::
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48, 'private'], // local-use NAT64
  [[1, 0, 0, 0, 0, 0, 0, 0], 64, 'reserved'], // discard
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'], // documentation
  [[0x20, 0x01, 0, 0], 32, 'reserved'], // Teredo: an IPv4 address hidden in the bits
  [[0xfc], 7, 'private'], // ULA, fd00:ec2::254 among them
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'private'], // site-local (deprecated)
  [[0xff], 8, 'multicast'],
];

function inRange(b: number[], [prefix, bits]: Range): boolean {
  const full = [...prefix, ...Array<number>(b.length).fill(0)].slice(0, b.length);
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((b[byte]! & mask) !== (full[byte]! & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address reaches (mapped, NAT64, 6to4), if any. */
function embeddedV4(b: number[]): number[] | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12); // ::ffff:a.b.c.d
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4 2002:AABB:CCDD::
  return undefined;
}

/** Why `a` is not a public address, or undefined when it is. */
export function classify(a: ParsedAddress): AddressClass | undefined {
  if (a.family === 4) return V4.find((r) => inRange(a.bytes, r))?.[2];
  const own = V6.find((r) => inRange(a.bytes, r))?.[2];
  if (own) return own;
  const v4 = embeddedV4(a.bytes);
  if (v4) return V4.find((r) => inRange(v4, r))?.[2];
  // ::a.b.c.d (IPv4-compatible, deprecated) and the rest of ::/96: nothing public lives there.
  if (a.bytes.slice(0, 12).every((x) => x === 0)) return 'reserved';
  return undefined;
}

/** The same host machine for a grant: both spell one address (an IPv4-mapped IPv6 equals its IPv4). */
export function sameAddress(a: ParsedAddress, b: ParsedAddress): boolean {
  const v4 = (x: ParsedAddress) =>
    x.family === 4
      ? x.bytes
      : x.bytes.slice(0, 10).every((y) => y === 0) && x.bytes[10] === 0xff && x.bytes[11] === 0xff
        ? x.bytes.slice(12)
        : undefined;
  const [x, y] = [v4(a), v4(b)];
  if (x && y) return x.join('.') === y.join('.');
  return a.text === b.text;
}

/** Names that mean this host whatever a resolver says (RFC 6761): refused before any lookup. */
export function isLocalName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  return (
    n === 'localhost' ||
    n.endsWith('.localhost') ||
    n === 'localhost.localdomain' ||
    n === 'ip6-localhost' ||
    n === 'ip6-loopback'
  );
}

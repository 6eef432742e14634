// Pages of `tools/list` and of `search_tools` results. A cursor is opaque to the client but holds
// nothing secret or replica-bound: the version of the tool list it was made for (a digest of the
// ids the caller sees) and where the next page starts (the last id sent; for a search, the offset
// and a digest of the query). Any replica with the same registry continues it; a cursor made for
// another version of the list starts over at the first page; one that is not ours is -32602.
import { createHash } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** Tools per page of tools/list (serve.tools.page_size, --page-size). */
export const DEFAULT_PAGE_SIZE = 100;

const digest = (parts: string[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('base64url').slice(0, 16);
};

/** The version of a list of ids (sorted): what a cursor is valid for. */
export const listVersion = (ids: string[]): string => digest(ids);

interface ListCursor {
  v: string;
  a: string;
}
interface SearchCursor {
  v: string;
  q: string;
  o: number;
}

const encode = (c: object) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decode(cursor: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* not ours: refused below */
  }
  return {};
}

const invalid = (what: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid cursor: ${what} (send the nextCursor of the last page, or none for the first)`,
  );

/**
 * One page of `items` (sorted by `id`, as `ids`), starting after the cursor's last id. A cursor of
 * another version starts over; a malformed one throws -32602.
 */
export function listPage<T>(
  items: T[],
  ids: string[],
  version: string,
  cursor: unknown,
  size: number,
): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    if (typeof cursor !== 'string') throw invalid('not a string');
    const c = decode(cursor) as Partial<ListCursor>;
    if (typeof c.v !== 'string' || typeof c.a !== 'string') throw invalid('not a cursor of this server');
    if (c.v === version) start = firstAfter(ids, c.a);
  }
  const page = items.slice(start, start + size);
  const end = start + page.length;
  return end < items.length ? { items: page, nextCursor: encode({ v: version, a: ids[end - 1]! }) } : { items: page };
}

/** The first index of sorted `ids` past `after` (binary search: the id itself may be gone since). */
function firstAfter(ids: string[], after: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where a search page starts: 0, or the cursor's offset when it was made for this query and list version. */
export function searchOffset(cursor: unknown, query: string, version: string): number | string {
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string') return 'not a string';
  const c = decode(cursor) as Partial<SearchCursor>;
  if (typeof c.v !== 'string' || typeof c.q !== 'string' || !Number.isInteger(c.o) || c.o! < 0)
    return 'not a cursor of this server';
  if (c.q !== digest([query])) return 'made for another query';
  return c.v === version ? c.o! : 0;
}

/** The cursor of the search page after one that ended at `offset`. */
export const searchCursor = (query: string, version: string, offset: number): string =>
  encode({ v: version, q: digest([query]), o: offset });

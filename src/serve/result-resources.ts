// A result cut at the output cap keeps its full text in a file under .toolbox/results/. A client of
// serve may be on another machine, so it gets that file as an MCP resource instead of a host path:
// `toolbox://results/<id>`, readable with resources/read for an hour. The id is random (128 bits)
// and the only way to it, so a client reads the results it was given and nothing else.
//
// The store (a Redis for a deployment) is written by whatever can reach it, so it holds data, never a
// host path: a record is sealed with a key only the id gives (sealed.ts) and carries either the
// content itself or, for a result kept only here, the kind of its file, whose name in this project's
// .toolbox/results/ is made from the id (so a record can only ever lead to the file made for its
// own id). That file is read through util/state.ts (no links, a regular file of the user's, size
// bounded); a record that fails its check is ignored and said, never served.
import { createHash, randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import type { Truncation } from '../runtime/cap.js';
import { readState, renameState } from '../util/state.js';
import { getSealed, putSealed } from './sealed.js';
import type { ServeStore } from './store.js';

export const RESULTS_PREFIX = 'toolbox://results/';
/**
 * Results up to this size travel in a shared store (a replica's files are its own); larger ones are
 * read back only where they were made.
 */
export const SHARED_RESULT_MAX = 8 * 1024 * 1024;
/** How long a capped result can be read back. */
export const RESULT_TTL_MS = 60 * 60_000;

interface ResultRecord {
  /** The content itself (base64), or the extension of the id's file in this project's .toolbox/results/. */
  data?: string;
  ext?: 'txt' | 'json' | 'bin';
  mimeType: string;
  binary: boolean;
  bytes: number;
  expires: number;
}

const ID = /^[A-Za-z0-9_-]{22}$/;
const EXTS = new Set(['txt', 'json', 'bin']);

/** The file of result `id` in .toolbox/results/ (a digest: the id itself is the capability). */
const fileOf = (id: string, ext: string) =>
  `results/serve-${createHash('sha256').update(`toolbox result file ${id}`).digest('hex').slice(0, 40)}.${ext}`;

function isRecord(v: unknown): v is ResultRecord {
  const r = v as Partial<ResultRecord> | null;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
  const hasData = typeof r.data === 'string';
  const hasFile = typeof r.ext === 'string' && EXTS.has(r.ext);
  return (
    hasData !== hasFile &&
    typeof r.mimeType === 'string' &&
    typeof r.binary === 'boolean' &&
    Number.isSafeInteger(r.bytes) &&
    r.bytes! >= 0 &&
    typeof r.expires === 'number'
  );
}

/** Where a serve process finds its results and says what it ignored. */
export interface ResultPlace {
  /** This project's `.toolbox/` (results are read only from its results/ folder). */
  stateDir: string;
  /** Said (rate-limited by the caller) when a stored record fails its check. */
  forged?: (what: string) => void;
}

/** A resource link to a capped result, as a tool result's content block. */
export interface ResultLink {
  type: 'resource_link';
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  size: number;
}

/** Make the full result of a capped call readable as a resource; returns its link. */
export async function publishResult(
  store: ServeStore,
  place: ResultPlace,
  t: Truncation,
  now = Date.now(),
): Promise<ResultLink> {
  const id = randomBytes(16).toString('base64url');
  const name = basename(t.file);
  // Replicas do not share their .toolbox/: a store shared between them carries the content itself.
  let data: string | undefined;
  if (store.crossesMachines && t.bytes <= SHARED_RESULT_MAX)
    data = readState(place.stateDir, `results/${name}`, t.bytes)?.toString('base64');
  const ext = /\.(txt|json|bin)$/.exec(name)?.[1] as ResultRecord['ext'];
  // Kept here only: the file takes the id's name, the one place a record of this id can lead to.
  if (data === undefined && ext) renameState(place.stateDir, `results/${name}`, fileOf(id, ext));
  const rec: ResultRecord = {
    ...(data !== undefined ? { data } : { ext }),
    mimeType: t.mimeType,
    binary: t.binary,
    bytes: t.bytes,
    expires: now + RESULT_TTL_MS,
  };
  await putSealed(store, 'result', id, rec, RESULT_TTL_MS);
  return {
    type: 'resource_link',
    uri: `${RESULTS_PREFIX}${id}`,
    name,
    description: t.binary ? 'binary output of the tool' : `the full result (cut at ${t.cap} tokens above)`,
    mimeType: t.mimeType,
    size: t.bytes,
  };
}

/** The bytes of a checked record: its content, or the id's file in this project's results. */
function content(place: ResultPlace, id: string, rec: ResultRecord): Buffer | undefined {
  if (rec.data !== undefined) return Buffer.from(rec.data, 'base64');
  try {
    const b = readState(place.stateDir, fileOf(id, rec.ext!), rec.bytes);
    return b && b.length === rec.bytes ? b : undefined;
  } catch {
    return undefined; // a refused entry (a link, another user's file): not served
  }
}

async function readResult(store: ServeStore, place: ResultPlace, uri: string) {
  const id = uri.startsWith(RESULTS_PREFIX) ? uri.slice(RESULTS_PREFIX.length) : '';
  const got = ID.test(id) ? await getSealed(store, 'result', id, isRecord) : { found: false as const };
  if (got.found && got.forged) place.forged?.('result');
  const rec = got.found && !got.forged ? got.value : undefined;
  // removed since (state folder cleaned), or expired: gone
  const data = rec && rec.expires > Date.now() ? content(place, id, rec) : undefined;
  if (!rec || !data) throw new ResourceNotFoundError(uri, `Resource not found (or expired): ${uri}`);
  return { rec, data };
}

/** resources/list, resources/templates/list and resources/read for capped results. */
export function addResultResources(server: Server, store: ServeStore, place: ResultPlace): void {
  // Results are not listed (a client learns the links it was given); the template says what they look like.
  server.setRequestHandler(
    'resources/list',
    async () => ({ resources: [], ttlMs: RESULT_TTL_MS, cacheScope: 'private' }) as never,
  );
  server.setRequestHandler(
    'resources/templates/list',
    async () =>
      ({
        resourceTemplates: [
          {
            uriTemplate: `${RESULTS_PREFIX}{id}`,
            name: 'result',
            title: 'Full tool result',
            description:
              'The full result of a tool call whose output was cut at the output cap; the call returns a link to it. Kept for an hour.',
          },
        ],
        ttlMs: RESULT_TTL_MS,
        cacheScope: 'private',
      }) as never,
  );
  server.setRequestHandler('resources/read', async (req) => {
    const uri = req.params.uri;
    const { rec, data } = await readResult(store, place, uri);
    const c = rec.binary
      ? { uri, mimeType: rec.mimeType, blob: data.toString('base64') }
      : { uri, mimeType: rec.mimeType, text: data.toString('utf8') };
    // The content never changes: it may be cached until it expires here.
    return { contents: [c], ttlMs: Math.max(0, rec.expires - Date.now()), cacheScope: 'private' } as never;
  });
}

// A result cut at the output cap keeps its full text in a file under .toolbox/results/. A client of
// serve may be on another machine, so it gets that file as an MCP resource instead of a host path:
// `toolbox://results/<id>`, readable with resources/read for an hour. The id is random (128 bits)
// and the only way to it, so a client reads the results it was given and nothing else; the store
// maps it to the file (a replica answering resources/read needs the same state folder).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import type { Truncation } from '../runtime/cap.js';
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
  /** The file in this replica's .toolbox/results/, or the content itself (base64) in a shared store. */
  file: string;
  data?: string;
  mimeType: string;
  binary: boolean;
  bytes: number;
  expires: number;
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
export async function publishResult(store: ServeStore, t: Truncation, now = Date.now()): Promise<ResultLink> {
  const id = randomBytes(16).toString('base64url');
  // Replicas do not share their .toolbox/: a store shared between them carries the content itself.
  let data: string | undefined;
  if (store.crossesMachines && t.bytes <= SHARED_RESULT_MAX)
    data = await readFile(t.file)
      .then((b) => b.toString('base64'))
      .catch(() => undefined);
  const rec: ResultRecord = {
    file: t.file,
    ...(data !== undefined ? { data } : {}),
    mimeType: t.mimeType,
    binary: t.binary,
    bytes: t.bytes,
    expires: now + RESULT_TTL_MS,
  };
  await store.set(`result:${id}`, rec, RESULT_TTL_MS);
  return {
    type: 'resource_link',
    uri: `${RESULTS_PREFIX}${id}`,
    name: basename(t.file),
    description: t.binary ? 'binary output of the tool' : `the full result (cut at ${t.cap} tokens above)`,
    mimeType: t.mimeType,
    size: t.bytes,
  };
}

/** resources/list, resources/templates/list and resources/read for capped results. */
export function addResultResources(server: Server, store: ServeStore): void {
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
    const rec = uri.startsWith(RESULTS_PREFIX)
      ? await store.get<ResultRecord>(`result:${uri.slice(RESULTS_PREFIX.length)}`)
      : undefined;
    let data: Buffer | undefined;
    try {
      if (rec?.data !== undefined) data = Buffer.from(rec.data, 'base64');
      else if (rec) data = await readFile(rec.file);
    } catch {
      /* removed since (state folder cleaned): gone */
    }
    if (!rec || !data) throw new ResourceNotFoundError(uri, `Resource not found (or expired): ${uri}`);
    const content = rec.binary
      ? { uri, mimeType: rec.mimeType, blob: data.toString('base64') }
      : { uri, mimeType: rec.mimeType, text: data.toString('utf8') };
    // The content never changes: it may be cached until it expires here.
    return { contents: [content], ttlMs: Math.max(0, rec.expires - Date.now()), cacheScope: 'private' } as never;
  });
}

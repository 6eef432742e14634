import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentBlock } from '../mcp/content.js';
import { writeFileAtomic } from '../util/fs.js';

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/csv': 'csv',
};

/** One file `run --out` wrote. */
export interface SavedBlock {
  file: string;
  type: string;
  mimeType?: string;
  bytes: number;
  uri?: string;
}

/**
 * Save a result's non-text blocks (images, audio, embedded resources) as files in `dir`:
 * `<tool>-<n>.<ext>`, the extension from the MIME type. Resource links have no bytes: they are
 * listed in the text, not saved. Each file is written atomically.
 */
export function saveBlocks(dir: string, tool: string, blocks: ContentBlock[]): SavedBlock[] {
  const saved: SavedBlock[] = [];
  let n = 0;
  for (const b of blocks) {
    let data: Buffer | undefined;
    let mimeType: string | undefined;
    let uri: string | undefined;
    if ((b.type === 'image' || b.type === 'audio') && typeof b.data === 'string') {
      data = Buffer.from(b.data, 'base64');
      mimeType = b.mimeType as string;
    } else if (b.type === 'resource') {
      const r = b.resource as { uri?: string; mimeType?: string; text?: string; blob?: string };
      data = typeof r.text === 'string' ? Buffer.from(r.text, 'utf8') : Buffer.from(r.blob ?? '', 'base64');
      mimeType = r.mimeType;
      uri = r.uri;
    }
    if (!data) continue;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${tool}-${++n}.${EXT[mimeType ?? ''] ?? (b.type === 'resource' ? 'txt' : 'bin')}`);
    writeFileAtomic(file, data);
    saved.push({ file, type: b.type, ...(mimeType ? { mimeType } : {}), bytes: data.length, ...(uri ? { uri } : {}) });
  }
  return saved;
}

/** Lines for stderr about a result's non-text blocks: the files saved, or how to save them. */
export function contentNotes(saved: SavedBlock[] | undefined, blocks: ContentBlock[] | undefined): string[] {
  if (saved) return saved.map((f) => `saved ${f.type} ${f.mimeType ?? ''} (${f.bytes} bytes): ${f.file}`);
  return blocks?.some((b) => b.type !== 'text')
    ? ['The result has non-text content: `--out DIR` saves it as files.']
    : [];
}

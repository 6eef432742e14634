import { existsSync } from 'node:fs';
import { createFileExclusive, writeFileAtomic } from '../util/fs.js';
import type { PlannedFile } from './tool.js';

/** What happened to each planned file. */
export interface WriteReport {
  created: PlannedFile[];
  /** Existed and were replaced (only with force). */
  overwritten: PlannedFile[];
  /** Existed and were left byte for byte as they were (without force). */
  kept: PlannedFile[];
}

/**
 * Write planned files. Without `force` an existing file is never touched (O_EXCL create);
 * with `force` it is replaced atomically (temp file + rename), so an interrupted run never
 * leaves half a file either way.
 */
export function writePlanned(files: PlannedFile[], opts: { force?: boolean } = {}): WriteReport {
  const report: WriteReport = { created: [], overwritten: [], kept: [] };
  for (const f of files) {
    if (opts.force) {
      const existed = existsSync(f.path);
      writeFileAtomic(f.path, f.content);
      (existed ? report.overwritten : report.created).push(f);
    } else if (createFileExclusive(f.path, f.content)) {
      report.created.push(f);
    } else {
      report.kept.push(f);
    }
  }
  return report;
}

/** The planned files that already exist (so `new` can refuse before writing anything). */
export function existing(files: PlannedFile[]): PlannedFile[] {
  return files.filter((f) => existsSync(f.path));
}

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ExitCode, ToolboxError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { REPORT_MARK } from './page.js';

/** Whether `file` starts like a report toolbox wrote (its first 4 KiB hold the generator mark). */
function isReport(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').includes(REPORT_MARK);
  } finally {
    closeSync(fd);
  }
}

const refuse = (code: string, message: string, hint: string) =>
  new ToolboxError(code, message, { exitCode: ExitCode.usage, hint });

/**
 * Check where `--report FILE` may write, before any work is done: not a folder, and an existing
 * file only when it is an earlier toolbox report or the user passed --force (a mistyped
 * `--report README.md` must not destroy README.md).
 */
export function checkReportPath(file: string, force: boolean): void {
  let st;
  try {
    st = statSync(file);
  } catch {
    return; // does not exist yet
  }
  if (st.isDirectory())
    throw refuse(
      'report_path_invalid',
      `--report ${file}: is a folder`,
      'Name the HTML file to write, e.g. --report eval.html.',
    );
  if (!st.isFile())
    throw refuse(
      'report_path_invalid',
      `--report ${file}: not a regular file`,
      'Name a regular file, e.g. --report eval.html.',
    );
  if (!force && !isReport(file))
    throw refuse(
      'report_exists',
      `--report ${file}: the file exists and is not a toolbox report`,
      'Pass --force to overwrite it, or name another file.',
    );
}

/** Write the report atomically (a temp file beside it, renamed over): never half-written. */
export function writeReport(file: string, html: string, force: boolean): void {
  checkReportPath(file, force); // again: the file may have appeared while the report was built
  try {
    writeFileAtomic(file, html);
  } catch (e) {
    throw new ToolboxError('report_write_failed', `cannot write --report ${file}: ${(e as Error).message}`, {
      exitCode: ExitCode.output,
      hint: 'Check that the folder is writable and the disk not full.',
    });
  }
}

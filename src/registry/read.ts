// Reading one contract file: through the project-file reader (util/project-file.ts), inside the
// registry folder, at most 1 MiB. What cannot be read becomes one diagnostic that names the rule,
// never the file's content (a contract linked to ~/.aws/credentials is refused, not quoted).
import type { Diagnostic } from '../contract/diagnostic.js';
import { MAX_CONTRACT_BYTES } from '../contract/parse.js';
import { ProjectFileError, readProjectFile } from '../util/project-file.js';

const HINTS: Record<ProjectFileError['reason'], string> = {
  missing: 'The file went away while the registry was read; run the command again.',
  unreadable: "Check the file's permissions.",
  too_large: 'A contract describes one tool; move data out of it, or move the file out of the registry folder.',
  outside:
    'A contract file must lie inside the registry folder; replace the link with the file itself (toolbox never reads a link out of the registry).',
  secret: 'toolbox never reads credential files (.env*, .git/, .npmrc, .aws/, …); rename or move the file.',
  not_regular: 'A contract must be a regular file, not a device, FIFO or socket (or a link to one).',
};

/**
 * The bytes of the contract file `abs`, which must lie in `registryDir`, or the diagnostic that says
 * why it was not read. `listed`: the path came from discoverContractFiles (no linked folders on it).
 */
export function readContractFile(registryDir: string, abs: string, listed = true): Uint8Array | Diagnostic {
  try {
    return readProjectFile(registryDir, abs, { max: MAX_CONTRACT_BYTES, listed });
  } catch (e) {
    if (!(e instanceof ProjectFileError)) throw e;
    const tooLarge = e.reason === 'too_large';
    return {
      file: abs,
      line: 1,
      column: 1,
      severity: 'error',
      rule: tooLarge
        ? 'file-too-large'
        : e.reason === 'missing' || e.reason === 'unreadable'
          ? 'unreadable'
          : 'file-refused',
      message: tooLarge
        ? `contract file is ${e.size === undefined ? `more than ${MAX_CONTRACT_BYTES}` : e.size} bytes; the limit is ${MAX_CONTRACT_BYTES} (1 MiB)`
        : `cannot read the file: ${e.message}`,
      hint: HINTS[e.reason],
    };
  }
}

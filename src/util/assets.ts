// Where toolbox's own files are, in one place: the package root (package.json, templates/,
// schemas/, data/) and the code folder (src/ or dist/: runner programs, checker.py, the verifier
// script beside their modules). It holds unbundled, where this file is <code>/util/assets.{ts,js}
// (src/ under vitest, dist/ from tsc), and bundled, where this code sits inside dist/cli.cjs and
// the bundler defines TOOLBOX_BUNDLED (scripts/bundle.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const TOOLBOX_BUNDLED: boolean | undefined;

const here = dirname(fileURLToPath(import.meta.url));

/** src/ (tests) or dist/ (installed): the folder the module tree starts from. */
export const CODE_DIR = typeof TOOLBOX_BUNDLED !== 'undefined' && TOOLBOX_BUNDLED ? here : dirname(here);

/** The package root: the folder that holds package.json. */
export const PACKAGE_ROOT = dirname(CODE_DIR);

/** A path below the code folder, e.g. codePath('loaders', 'runners', 'python_runner.py'). */
export const codePath = (...parts: string[]): string => join(CODE_DIR, ...parts);

/** A path below the package root, e.g. packagePath('templates', 'python_function'). */
export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);

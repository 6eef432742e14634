// Type-aware lint for src/ (and a lighter pass over tests, benches and scripts).
// Every rule turned off or down below says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Starting a process outside the sandbox happens in one module, src/util/host-process.ts, which starts only
// trusted system programs (docs/sandbox.md, "The host side"). Every way of reaching node:child_process or execa
// elsewhere in shipped code is an error: static, dynamic and re-exported imports, require() and createRequire()
// calls (process.binding, the other way in, is refused everywhere below). Type-only imports are fine (erased).
const CHILD = '/^(node:)?child_process$|^execa(\\/.*)?$/';
const hostProcessOnly = [
  ...[
    `ImportDeclaration[importKind!='type'][source.value=${CHILD}]`,
    `ExportNamedDeclaration[exportKind!='type'][source.value=${CHILD}]`,
    `ExportAllDeclaration[source.value=${CHILD}]`,
    `ImportExpression[source.value=${CHILD}]`,
    `CallExpression[arguments.0.value=${CHILD}]`,
    `CallExpression > TemplateLiteral.arguments:first-child[quasis.0.value.raw=${CHILD}]`,
  ].map((selector) => ({
    selector,
    message:
      'Start host processes through src/util/host-process.ts only (trusted system programs, see docs/sandbox.md).',
  })),
];

// Reading a file a project names (a contract, a requirements file, a lock input, the project's config,
// .gitignore) happens in one module, src/util/project-file.ts: inside the project after every link, regular
// files only, bounded while reading, never a credential file, never echoed (docs/sandbox.md, "The host side").
// Every other module may not import node:fs's read calls; the files below read only toolbox's own or the
// user's files, each for the reason given, and are the only exceptions (scripts/lint-selftest.mjs plants a
// read outside them).
const FS_READS = ['readFileSync', 'readFile', 'createReadStream', 'openSync', 'open', 'readSync', 'read', 'readv'];
const FS = '/^(node:)?fs(\\/promises)?$/';
const projectFileOnly = {
  paths: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
    name,
    importNames: [...FS_READS, 'default'],
    message: 'Read files a project names through src/util/project-file.ts (see eslint.config.js for the exceptions).',
  })),
};
const fsReadSyntax = [
  `ImportExpression[source.value=${FS}]`,
  `CallExpression[arguments.0.value=${FS}]`,
  "CallExpression[callee.property.name='getBuiltinModule']",
].map((selector) => ({
  selector,
  message: 'Read files a project names through src/util/project-file.ts (see eslint.config.js for the exceptions).',
}));
const READS_OWN_FILES = [
  'src/util/project-file.ts', // the reader itself
  'src/util/host-process.ts', // the ELF magic of a trusted interpreter
  'src/util/state.ts', // .toolbox/: its own checks (owned by the user, no links, O_NOFOLLOW|O_NONBLOCK)
  'src/util/fs.ts', // opens temp files it creates (O_EXCL) for writing
  'src/util/tree-hash.ts', // server trees toolbox installed under .toolbox/servers (checked by util/state.ts)
  'src/util/version.ts', // toolbox's own package.json
  'src/util/proc.ts', // /proc of processes toolbox started
  'src/util/owned-dirs.ts', // the user's cache
  'src/sandbox/marked.ts', // /proc/<pid>/environ of toolbox's own children
  'src/sandbox/probe.ts', // the user's cache
  'src/sandbox/diagnose.ts', // /proc/sys and /proc/self: the kernel's answers about user namespaces
  'src/state/url.ts', // the password file the user names in $TOOLBOX_STATE_PASSWORD_FILE
  'src/daemon/paths.ts', // the daemon's own files in the user's runtime folder
  'src/daemon/pidlock.ts',
  'src/daemon/spawn.ts', // the daemon log, opened for appending
  'src/serve/auth.ts', // the user's token file (O_NOFOLLOW)
  'src/serve/peer-uid.ts', // /proc/net tables
  'src/serve/result-resources.ts', // result files toolbox wrote
  'src/policy/grants.ts', // the user's own grants.yaml (ownership checked)
  'src/policy/user-config.ts', // the user's own config.yaml (ownership checked, outside the project)
  'src/config-cache.ts', // the user's cache
  'src/report/page.ts', // toolbox's own assets
  'src/report/write.ts', // a report toolbox wrote
  'src/select/han-fold.ts', // toolbox's own data
  'src/select/lexicon.ts',
  'src/select/dense.ts', // caches under .toolbox/ (paths from util/state.ts's cachePath)
  'src/select/full-build.ts',
  'src/select/store.ts',
  'src/select/journal.ts',
  'src/select/evaluate.ts', // a cases file the user names on the command line
  'src/select/compare.ts', // a saved eval the user names on the command line
  'src/commands/run.ts', // --args-file, named by the user
  'src/lint/runnable/python.ts', // toolbox's own checker script
  'src/scaffold/templates.ts', // toolbox's own templates
  'src/mcp/oauth.ts', // the user's token store
  'src/mcp/npm-config.ts', // the user's ~/.npmrc
  'src/mcp/era.ts', // the user's cache
  'src/mcp/install.ts', // what toolbox installed under .toolbox/servers
  'src/mcp/sources.ts', // an MCP client config the user names on the command line
  'src/deps/env-record.ts', // the marker of a venv toolbox made
  'src/deps/cache.ts', // .toolbox/ cache (util/state.ts's cachePath)
  'src/launch/code-cache.ts', // the user's compile cache
  // Lock inputs: the files of a tool's bound folders, found by an lstat walk (no links followed) and hashed;
  // issue 34 item 2 (the lock's own work) moves the hashing onto the reader.
  'src/lock/code.ts',
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      // Stryker's sandbox copy and reports (npm run mutate).
      '.stryker-tmp/',
      'reports/',
      'templates/',
      'tool_registry/',
      'my_tools/',
      'test/fixtures/',
      'bench/.data/',
      '**/*.py',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's internal bindings (DEP0111) may change in any release: toolbox uses public APIs only.
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'binding', message: 'Use a public Node API (node:net, node:tty, …).' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Promises that nobody awaits lose errors in a CLI that spawns children and writes state files.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // no-unnecessary-condition is off: without noUncheckedIndexedAccess every `arr[i] === undefined` guard and every
      // `signal.aborted` re-check after an await is reported (57 findings on first run, none a real bug).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Prettier wraps code at 120 but leaves comments and literals alone: hold comments to the same width.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      // Errors thrown across process and worker boundaries are often plain objects: `any` in catch clauses is fine.
      '@typescript-eslint/no-explicit-any': 'off',
      // Control characters are matched on purpose (NUL bytes, ANSI escapes, bidi marks in untrusted text).
      'no-control-regex': 'off',
    },
  },
  {
    // The HTML reports' browser code: classic scripts concatenated into one inline <script> (uPlot,
    // common.js, then the page's file): common.js's D and TB are globals of the others (/* global */).
    files: ['src/report/app/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        document: 'readonly',
        window: 'readonly',
        getComputedStyle: 'readonly',
        matchMedia: 'readonly',
        Intl: 'readonly',
        uPlot: 'readonly',
      },
    },
  },
  {
    // The runners run inside the sandboxed child under plain Node.
    files: ['src/loaders/runners/*.mjs'],
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly' } },
  },
  {
    files: [
      'test/**/*.ts',
      'bench/**/*.mjs',
      'scripts/**/*.mjs',
      'examples/**/*.mjs',
      'deploy/**/*.mjs',
      'bin/**/*.js',
      '*.js',
      '*.ts',
    ],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
      },
    },
    rules: {
      // Tests build hostile and malformed inputs on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.mjs', 'bin/**/*.js'],
    ignores: ['src/util/host-process.ts'],
    rules: { 'no-restricted-syntax': ['error', ...hostProcessOnly] },
  },
  {
    // A superset of the block above (a later block's no-restricted-syntax replaces an earlier one's).
    files: ['src/**/*.ts'],
    ignores: READS_OWN_FILES,
    rules: {
      'no-restricted-imports': ['error', projectFileOnly],
      'no-restricted-syntax': ['error', ...hostProcessOnly, ...fsReadSyntax],
    },
  },
  {
    // The launcher is CommonJS on purpose (bin/package.json): it answers --version before any ES module loads.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

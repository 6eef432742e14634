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
    // The launcher is CommonJS on purpose (bin/package.json): it answers --version before any ES module loads.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

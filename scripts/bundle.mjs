// Bundles the two CommonJS files bin/toolbox.js loads:
//   dist/launch.cjs  src/launch/index.ts: the daemon client for `select` and `run` and the loader of
//                    the CLI; small, because every command loads it (node:net only once a daemon's
//                    socket is there).
//   dist/cli.cjs     src/main.ts and every module it reaches, lazily imported ones included, loaded by
//                    launch.cjs with a V8 code cache on Node 20 (Node >= 22 has its own). A warm
//                    `select` resolved, linked and compiled ~45 ES modules and a `run` ~80; one file
//                    whose compiled code comes from the cache costs a fraction of that.
//
// What stays as it was: tsc still type-checks and emits dist/**/*.js + .d.ts (the library API,
// `import ... from 'agent-toolbox'`, and the scripts started as their own processes, such as
// dist/daemon-main.js and dist/select/verify-main.js). Packages in node_modules are not bundled: they
// are required (or, for ES-only ones, imported) when the code that needs them first runs, as before.
//
// In both bundles: `import.meta.url` is the bundle's own URL and TOOLBOX_BUNDLED is true, which is all
// src/util/assets.ts needs to find runners, templates and data. In cli.cjs a dynamic `import('pkg')`
// is routed through `__tbImport`: the `__import` function src/launch/code-cache.ts passes in (code
// compiled by `vm.Script`, how a code cache is used on Node 20, cannot call `import()` itself), else a
// plain `import()`.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

const options = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  metafile: true,
  write: false,
  logLevel: 'warning',
  legalComments: 'none',
  define: { 'import.meta.url': '__tbMetaUrl', TOOLBOX_BUNDLED: 'true' },
  banner: { js: '"use strict";\n' + "var __tbMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** Write `text` to `out` and say so on stderr (`npm pack --json` runs this and its stdout must stay JSON). */
function save(out, text, result) {
  writeFileSync(out, text);
  const kb = (readFileSync(out).length / 1024).toFixed(0);
  process.stderr.write(`bundle: ${out} (${kb} KB, ${Object.keys(result.metafile.inputs).length} modules)\n`);
}

const launch = await build({ ...options, entryPoints: ['src/launch/index.ts'], outfile: 'dist/launch.cjs' });
save('dist/launch.cjs', launch.outputFiles[0].text, launch);

const OUT = 'dist/cli.cjs';
const result = await build({
  ...options,
  entryPoints: ['src/main.ts'],
  outfile: OUT,
  banner: {
    js: options.banner.js + "\nvar __tbImport = typeof __import === 'function' ? __import : (s) => import(s);",
  },
});

// Every dynamic import left in the output is one of an external package (own modules are inlined).
const dynamic = new Set(
  Object.values(result.metafile.outputs).flatMap((o) =>
    o.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path),
  ),
);
let text = result.outputFiles[0].text;
let routed = 0;
text = text.replace(/\bimport\("([^"]+)"\)/g, (all, spec) => {
  if (!dynamic.has(spec)) throw new Error(`bundle: unexpected dynamic import of ${spec}`);
  routed++;
  return `__tbImport(${JSON.stringify(spec)})`;
});
if (routed === 0 && dynamic.size > 0) throw new Error('bundle: no dynamic import was routed');
// The banner's fallback is the only `import(` left; anything else would fail under vm.Script.
const left = text.match(/\bimport\(/g)?.length ?? 0;
if (left !== 1) throw new Error(`bundle: ${left - 1} dynamic import(s) not routed through __tbImport`);
save(OUT, text, result);

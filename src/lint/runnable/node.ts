// node_module tools: the module file exists and exports what loader_config.function names. Read
// statically (es-module-lexer, the lexer Vite and Node's own tooling use): no tool code runs, so
// validate stays safe on a registry nobody has reviewed, on every sandbox tier.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { closest } from '../../errors.js';
import type { NodeModuleConfig } from '../../contract/types.js';
import type { RunnableFinding, RunnableTool } from './types.js';
import { within as inside } from '../../util/paths.js';
import { readProjectText, readProjectTextIfAny } from '../../util/project-file.js';

const MAX_SOURCE = 4 * 1024 * 1024;
const JS = /\.(m?js|cjs)$/;

type Lexer = typeof import('es-module-lexer');
let lexer: Promise<Lexer> | undefined;
const loadLexer = () =>
  (lexer ??= import('es-module-lexer').then(async (m) => {
    await m.init();
    return m;
  }));

/** ESM, CommonJS (whose named exports Node guesses at run time: not judged here), or unknown. */
function format(file: string, root: string): 'esm' | 'cjs' | 'other' {
  const ext = extname(file);
  if (ext === '.mjs') return 'esm';
  if (ext === '.cjs') return 'cjs';
  if (ext !== '.js') return 'other';
  for (let d = dirname(file); inside(root, d); d = dirname(d)) {
    const pkg = join(d, 'package.json');
    if (existsSync(pkg)) {
      try {
        return (JSON.parse(readProjectText(root, pkg)) as { type?: unknown }).type === 'module' ? 'esm' : 'cjs';
      } catch {
        return 'other';
      }
    }
    if (d === root) break;
  }
  return 'cjs';
}

/** The names an ES module exports, following `export * from './x.js'` inside the project; undefined when unknowable. */
async function exportNames(
  file: string,
  root: string,
  depth = 0,
): Promise<{ names: Set<string>; defaultKind?: 'callable' | 'other' } | undefined> {
  if (depth > 4 || !statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  const src = readProjectTextIfAny(root, file, { max: MAX_SOURCE });
  if (src === undefined) return undefined;
  const { parse } = await loadLexer();
  let parsed;
  try {
    parsed = parse(src, file);
  } catch {
    return undefined; // the lexer could not read it: say nothing
  }
  const names = new Set<string>();
  let defaultKind: 'callable' | 'other' | undefined;
  for (const e of parsed[1]) {
    if (e.typeOnly) continue;
    if (e.type === 'reexport-all') {
      const target = resolve(dirname(file), e.from);
      // A package's names, or a file outside the project: not ours to read.
      if (!e.from.startsWith('.') || !inside(root, target)) return undefined;
      const inner = await exportNames(target, root, depth + 1);
      if (!inner) return undefined;
      for (const n of inner.names) if (n !== 'default') names.add(n);
      continue;
    }
    names.add(e.name);
    if (e.name === 'default' && e.type === 'direct')
      defaultKind = /^export\s+default\s+(async\s+)?(function|class)\b/.test(src.slice(e.exportStart))
        ? 'callable'
        : 'other';
  }
  return { names, ...(defaultKind ? { defaultKind } : {}) };
}

function missingFile(t: RunnableTool, module: string, abs: string): RunnableFinding {
  const dir = dirname(abs);
  let near: string[] = [];
  try {
    const files = readdirSync(dir).filter((f) => JS.test(f));
    near = closest(basename(abs), files).map((f) => join(dirname(module), f));
  } catch {
    /* no such folder */
  }
  return {
    tool: t,
    rule: 'loader-module',
    path: ['loader_config', 'module'],
    message: `module ${module} does not exist (looked at ${abs})${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}: every call would fail (module_not_found)`,
    hint: 'loader_config.module is a path relative to the project root, with its extension (.mjs, .js).',
  };
}

/** Findings for one node_module tool (none when its exports cannot be known without running it). */
export async function checkNodeTool(t: RunnableTool, root: string): Promise<RunnableFinding[]> {
  const cfg = t.contract.loader_config as unknown as NodeModuleConfig;
  const abs = isAbsolute(cfg.module) ? cfg.module : resolve(root, cfg.module);
  if (!existsSync(abs)) return [missingFile(t, cfg.module, abs)];
  if (format(abs, root) !== 'esm') return [];
  const fn = cfg.function ?? 'default';
  const got = await exportNames(abs, root);
  if (!got || got.names.has(fn)) return [];
  // A CommonJS-style `export default { fn }` object is reached into at run time: only a default that
  // is a function or class cannot hold it.
  if (fn !== 'default' && got.names.has('default') && got.defaultKind !== 'callable') return [];
  const named = [...got.names].filter((n) => n !== 'default').sort();
  const near = closest(fn, named);
  return [
    {
      tool: t,
      rule: 'loader-function',
      path: cfg.function === undefined ? ['loader_config', 'module'] : ['loader_config', 'function'],
      message:
        `module ${cfg.module} has no export '${fn}'` +
        (near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : '') +
        ` (exports: ${named.join(', ') || 'none'}${got.names.has('default') ? ', default' : ''}): every call would fail (function_not_found)`,
      hint:
        cfg.function === undefined
          ? 'Without loader_config.function toolbox calls the default export: add `function: <name>`, or export default the function.'
          : 'Fix loader_config.function, or export the function from the module.',
    },
  ];
}

// The import graph of src/: no import circle, and every import runs from a higher floor down.
// Run by `npm run lint`; scripts/lint-selftest.mjs proves it can fail.
//
// Every import counts: static, `import type`, `export … from` and `import('…')` (a circle through a
// lazy import or a type is still a circle a reader has to untangle). A file's room is its folder
// under src/ (src/select/rank.ts: select) or, for a file directly in src/, the room ROOT_ROOMS names.
// Rooms sit on floors, lowest first (CONTRIBUTING.md "Where things live", STYLE.md "The shape of the
// house"): a room imports only from rooms on floors below its own. Rooms on one floor are peers and
// never import each other: what two of them share moves down to a room below both.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Lowest first. A new folder under src/ must be placed here (the check says so). */
export const FLOORS = [
  ['errors', 'io'], // error and exit codes; the IO seam every command gets
  ['util'], // small helpers, host-process.ts among them (the one module that starts host programs)
  ['contract', 'telemetry'], // the contract format; the tracing switch
  ['config'], // the project and its toolbox.config.yaml
  ['registry', 'sandbox', 'policy'], // contracts found and indexed; isolation; permissions and sessions
  ['deps', 'state'], // per-tool dependency checks (run inside the sandbox); the connection to a shared state store (Redis)
  ['lock', 'select'], // toolbox.lock; the selector
  ['lint', 'mcp'], // validate and its rules; the MCP client side and `import mcp`
  ['loaders', 'scaffold'], // one file per loader type; init / new
  ['runtime'], // Runtime.invoke: the one pipeline
  ['serve', 'daemon', 'doctor', 'agent'], // the MCP server; the resident daemon and its client; doctor; agent loops' helpers
  ['output', 'report'], // what commands show: formatters, tables, colour, the command context; HTML reports
  ['commands'], // thin commands
  ['dispatch', 'fast-path'], // a command module by name; select/run's own argv parser
  ['cli'], // the commander tree
  ['main', 'launch'], // run(argv, io); what bin/toolbox.js loads (daemon client, else the CLI)
  ['index', 'daemon-main'], // the library API; the daemon process's entry
];

/** Files directly in src/ and their rooms (the three config files are one room). */
export const ROOT_ROOMS = {
  'errors.ts': 'errors',
  'io.ts': 'io',
  'config.ts': 'config',
  'config-schema.ts': 'config',
  'config-cache.ts': 'config',
  'fast-path.ts': 'fast-path',
  'dispatch.ts': 'dispatch',
  'cli.ts': 'cli',
  'main.ts': 'main',
  'index.ts': 'index',
  'daemon-main.ts': 'daemon-main',
};

/** Relative specifiers a file imports, of every kind, with their line numbers. */
function importsOf(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const add = (node, spec) => {
    if (spec.startsWith('.')) found.push({ spec, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      add(node, node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal.text); // `import('./x.js').T` in a type position
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The room of a path relative to src/ (posix separators), or undefined for a file on no floor. */
export function roomOf(rel) {
  const parts = rel.split('/');
  return parts.length > 1 ? parts[0] : ROOT_ROOMS[rel];
}

/**
 * The problems of a source tree given as Map<path relative to src/, text>: import circles, imports
 * that go up or sideways between rooms, files on no floor and imports of files that do not exist.
 */
export function checkGraph(files, floors = FLOORS) {
  const floorOf = new Map(floors.flatMap((rooms, i) => rooms.map((r) => [r, i])));
  const problems = [];
  const edges = new Map();
  const unplaced = new Set();
  for (const [rel, text] of files) {
    const from = roomOf(rel);
    // Said once per room (a file directly in src/ is a room of its own).
    if ((from === undefined || !floorOf.has(from)) && !unplaced.has(from ?? rel)) {
      unplaced.add(from ?? rel);
      problems.push(
        `src/${rel}: ${from ? `room '${from}'` : 'this file'} is on no floor (FLOORS in scripts/import-graph.mjs)`,
      );
    }
    const out = [];
    for (const { spec, line } of importsOf(rel, text)) {
      const target = join(dirname(rel), spec.replace(/\.js$/, '.ts')).split(sep).join('/');
      if (!files.has(target)) {
        if (!/\.(ts|js)$/.test(spec) || target.startsWith('..')) continue; // data files, runners, outside src/
        problems.push(`src/${rel}:${line}: imports ${spec}, which is not in src/`);
        continue;
      }
      out.push(target);
      const to = roomOf(target);
      if (to === from || !floorOf.has(from) || !floorOf.has(to)) continue;
      const [a, b] = [floorOf.get(from), floorOf.get(to)];
      if (b === a)
        problems.push(
          `src/${rel}:${line}: ${from} imports its peer ${to} (src/${target}); move what both need below them`,
        );
      else if (b > a)
        problems.push(`src/${rel}:${line}: ${from} (floor ${a}) imports ${to} (floor ${b}) upward (src/${target})`);
    }
    edges.set(rel, [...new Set(out)]);
  }
  for (const cycle of circles(edges))
    problems.push(`import circle: ${[...cycle, cycle[0]].map((f) => `src/${f}`).join(' → ')}`);
  return problems;
}

/** One circle through each strongly connected component of more than one file (or a file importing itself). */
function circles(edges) {
  // Tarjan's algorithm, iterative (a deep tree must not overflow the stack).
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    on.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      const next = edges.get(v) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          on.add(w);
          work.push([w, 0]);
        } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1][0];
        low.set(u, Math.min(low.get(u), low.get(v)));
      }
      if (low.get(v) !== index.get(v)) continue;
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(pathWithin(new Set(scc), edges, v));
    }
  }
  return out;
}

/** A shortest circle from `start` back to itself inside one component, as the files on it. */
function pathWithin(component, edges, start) {
  const prev = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of edges.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [];
        for (let x = v; x !== undefined; x = prev.get(x)) path.unshift(x);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** Every .ts file under `dir`, as Map<path relative to dir, text>. */
export function readTree(dir) {
  const files = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.set(relative(dir, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const src = resolve(import.meta.dirname, '..', 'src');
  const files = readTree(src);
  const problems = checkGraph(files);
  if (problems.length) {
    process.stderr.write(`import graph: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`import graph: ${files.size} files in ${FLOORS.length} floors, no circle, nothing upward\n`);
}

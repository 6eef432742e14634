import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Project } from '../config.js';
import type { SandboxPolicy, ToolEntry } from '../contract/types.js';
import { compareUpstream, recordImported, type UpstreamChange } from '../lock/upstream.js';
import { ExitCode, ToolboxError, usageError } from '../errors.js';
import { isToolRunError } from '../sandbox/tool-run-error.js';
import { loadRegistry } from '../registry/registry.js';
import { writeFileAtomic } from '../util/fs.js';
import { contractFor, fileState, renderContractFile, toSnakeId, type ListedTool } from './contract-file.js';
import { resolveLimits } from '../sandbox/limits.js';
import { openSession, type McpTarget } from './session.js';

/** What `toolbox import mcp` was asked to do. */
export interface ImportOptions {
  /** The server command and its arguments (stdio). */
  command?: string[];
  /** Streamable HTTP endpoint (instead of a command). */
  url?: string;
  prefix?: string;
  /** Folder for the contracts (resolved against cwd; must be inside the registry). Default: the registry folder. */
  out?: string;
  /** Overwrite contracts a person has edited. */
  force?: boolean;
  /** Open the network for the server (written into each contract's sandbox section). */
  network?: boolean;
  /** Host paths the server needs, bound read-only (written into each contract's sandbox.paths). */
  paths?: string[];
  cwd: string;
  /** Only compare the server's tools with toolbox.lock (`--check`); write nothing. */
  check?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What happened to one tool: new file, refreshed file, nothing to do, or a person's edit kept. */
export type ImportStatus = 'written' | 'updated' | 'unchanged' | 'kept' | 'overwritten' | 'conflict';

export interface ImportedTool {
  id: string;
  tool: string;
  file: string;
  status: ImportStatus;
  note?: string;
}

/** The outcome of one import, for the human table and --json. */
export interface ImportReport {
  server: { name: string; version: string };
  dir: string;
  tools: ImportedTool[];
  counts: Record<ImportStatus, number>;
  /** `--check`: what changed on the server since toolbox.lock (nothing is written). */
  upstream?: UpstreamChange[];
  /** The lock file updated with the imported tools' definitions. */
  lock?: string;
}

const emptyCounts = (): Record<ImportStatus, number> => ({
  written: 0,
  updated: 0,
  unchanged: 0,
  kept: 0,
  overwritten: 0,
  conflict: 0,
});

function outDir(project: Project, opts: ImportOptions): string {
  const dir = opts.out ? resolve(opts.cwd, opts.out) : project.registryDir;
  const rel = relative(project.registryDir, dir);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw usageError(
      'out_outside_registry',
      `--out ${opts.out} is outside the registry folder ${project.registryDir}`,
      `Give a folder inside it, e.g. --out ${join(relative(opts.cwd, project.registryDir) || '.', 'imported')}.`,
    );
  }
  return dir;
}

/** The command as the contract stores it: paths relative to the project root, so the registry can move. */
function contractCommand(project: Project, cwd: string, command: string): string {
  if (!command.includes('/')) return command;
  const abs = resolve(cwd, command);
  const rel = relative(project.root, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split(sep).join('/');
}

/** The server did not come up or answer: exit 4 (5 on a timeout), with what to try. */
function serverError(e: unknown): unknown {
  if (!isToolRunError(e)) return e;
  const timeout = e.kind === 'limit';
  return new ToolboxError(timeout ? 'mcp_server_timeout' : 'mcp_server_failed', e.message, {
    exitCode: timeout ? ExitCode.limit : ExitCode.toolFailed,
    hint: 'The server runs in the sandbox, as it will for every call: if it needs the network pass --network; if it needs host folders pass --path DIR; run it by hand to see its own errors.',
    cause: e,
  });
}

async function listTools(
  target: McpTarget,
  opts: ImportOptions,
): Promise<{ server: { name: string; version: string }; tools: ListedTool[] }> {
  const s = await openSession(target, {
    signal: opts.signal,
    timeoutMs: opts.timeoutMs ?? 30_000,
    nodeBinary: process.execPath,
  }).catch((e: unknown) => {
    throw serverError(e);
  });
  try {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.client.listTools(cursor ? { cursor } : undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs ?? 30_000,
      });
      tools.push(...(page.tools as unknown as ListedTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    return { server: s.server, tools };
  } catch (e) {
    throw serverError(e);
  } finally {
    await s.close();
  }
}

/**
 * Connect to an MCP server, list its tools and write one contract per tool. Never overwrites a
 * file a person has edited (unless force); never takes an id another contract already uses.
 */
export async function importMcp(project: Project, opts: ImportOptions): Promise<ImportReport> {
  if (!opts.url === !(opts.command && opts.command.length)) {
    throw usageError(
      'import_source_missing',
      opts.url ? 'give either --url or a server command, not both' : 'no MCP server given',
      'Use `toolbox import mcp -- <command> [args…]` or `toolbox import mcp --url http://host/mcp`.',
    );
  }
  const dir = outDir(project, opts);
  const paths = (opts.paths ?? []).map((p) => resolve(opts.cwd, p));
  const sandbox: SandboxPolicy = {};
  if (opts.network || opts.url) sandbox.network = true;
  if (paths.length) sandbox.paths = paths;
  let target: McpTarget;
  let loaderBase: Record<string, unknown>;
  if (opts.url) {
    target = { kind: 'http', url: opts.url, headers: {} };
    loaderBase = { url: opts.url };
  } else {
    const [cmd, ...args] = opts.command!;
    const stored = contractCommand(project, opts.cwd, cmd!);
    target = {
      kind: 'stdio',
      root: project.root,
      command: stored,
      args,
      env: {},
      readOnlyPaths: paths,
      network: Boolean(opts.network),
      limits: resolveLimits(sandbox, undefined, opts.timeoutMs),
      pathVar: process.env.PATH,
    };
    loaderBase = { command: stored, args };
  }
  const { server, tools } = await listTools(target, opts);
  if (opts.check) {
    const upstream = compareUpstream(project, server.name, tools);
    return { server, dir, tools: [], counts: emptyCounts(), upstream };
  }
  const existing = loadRegistry(project).byId;
  const counts = emptyCounts();
  const locked: { entry: ToolEntry; tool: ListedTool }[] = [];
  const seen = new Set<string>();
  const out: ImportedTool[] = [];
  for (const t of tools) {
    let id = toSnakeId(opts.prefix ?? '', t.name);
    for (let n = 2; seen.has(id); n++) id = `${toSnakeId(opts.prefix ?? '', t.name).slice(0, 60)}_${n}`;
    seen.add(id);
    const file = join(dir, `${id}.yaml`);
    const other = existing.get(id);
    if (other && resolve(other.file) !== file) {
      out.push({
        id,
        tool: t.name,
        file: other.file,
        status: 'conflict',
        note: `id already used by ${other.file}; use --prefix`,
      });
      counts.conflict++;
      continue;
    }
    const contract = contractFor(t, {
      id,
      provider: server.name,
      loaderConfig: { ...loaderBase, tool: t.name },
      sandbox,
    });
    const text = renderContractFile(contract, `MCP server '${server.name}'`);
    let before: string | undefined;
    try {
      before = readFileSync(file, 'utf8');
    } catch {
      before = undefined;
    }
    const state = fileState(before, text);
    let status: ImportStatus;
    if (state === 'same') status = 'unchanged';
    else if (state === 'edited' && !opts.force) status = 'kept';
    else status = state === 'missing' ? 'written' : state === 'edited' ? 'overwritten' : 'updated';
    if (status === 'written' || status === 'updated' || status === 'overwritten') writeFileAtomic(file, text);
    counts[status]++;
    if (status !== 'kept') locked.push({ entry: { contract, file }, tool: t });
    out.push({
      id,
      tool: t.name,
      file,
      status,
      ...(status === 'kept' ? { note: 'edited by hand; --force overwrites' } : {}),
    });
  }
  if (!tools.length)
    throw new ToolboxError('import_no_tools', `MCP server '${server.name}' lists no tools`, {
      exitCode: ExitCode.findings,
    });
  const lock = locked.length ? recordImported(project, server.name, locked) : undefined;
  return { server, dir, tools: out, counts, ...(lock ? { lock } : {}) };
}

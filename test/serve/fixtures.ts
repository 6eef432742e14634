// A small real registry for the serve tests: Python tools (fast, slow, restricted) and an mcp
// tool (server-filesystem on a unique temp folder, so its process can be found and counted).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, linkNodeModules, tempProject, testConfigEnv } from '../helpers.js';

const py = (id: string, fn: string, description: string, schema: string, extra = '') => `id: ${id}
name: ${id}
description: ${description}
schema:
${schema}
loader: python_function
loader_config:
  module: serve_tools.tools
  function: ${fn}
${extra}`;

const ECHO_SCHEMA = `  type: object
  properties:
    text: { type: string, description: the text to repeat }
  required: [text]
  additionalProperties: false`;

export const TOOLS_PY = `import time

def echo(text):
    return {"echo": text}

def slow(seconds):
    time.sleep(seconds)
    return {"slept": seconds}

def add(a, b):
    return {"sum": a + b}
`;

/** A temp project with the serve test registry. */
export function serveProject() {
  const p = tempProject({
    'serve_tools/__init__.py': '',
    'serve_tools/tools.py': TOOLS_PY,
    'data/hello.txt': 'hello from serve\n',
    'tool_registry/echo_text.yaml': py(
      'echo_text',
      'echo',
      'Repeat a text back unchanged. Use when the user wants an echo of their words.',
      ECHO_SCHEMA,
    ),
    'tool_registry/add_numbers.yaml': py(
      'add_numbers',
      'add',
      'Add two numbers and return the sum. Use for arithmetic addition of two numbers.',
      '  type: object\n  properties:\n    a: { type: number, description: first addend }\n    b: { type: number, description: second addend }\n  required: [a, b]\n  additionalProperties: false',
    ),
    'tool_registry/slow_sleep.yaml': py(
      'slow_sleep',
      'slow',
      'Sleep for some seconds, then answer. Use to test hung tools and timeouts.',
      '  type: object\n  properties:\n    seconds: { type: number, description: how long to sleep }\n  required: [seconds]',
      'timeout: 1\n',
    ),
    'tool_registry/admin_secret.yaml': py(
      'admin_secret',
      'echo',
      'Reveal the admin secret text. Use only for administrators managing secrets.',
      ECHO_SCHEMA,
      'permissions:\n  roles: [admin]\n',
    ),
    'tool_registry/list_data_files.yaml': `id: list_data_files
name: List data files
description: List the files of the data folder through an MCP filesystem server. Use to see which data files exist.
schema:
  type: object
  properties:
    path: { type: string, description: folder inside data }
  required: [path]
loader: mcp
loader_config:
  command: node_modules/.bin/mcp-server-filesystem
  args: ["\${PROJECT_ROOT}/data"]
  tool: list_directory
sandbox:
  paths: [data]
`,
  });
  linkNodeModules(p.dir);
  return { ...p, registry: join(p.dir, 'tool_registry') };
}

/** The SDK's own client on `toolbox serve` over stdio (the real binary). */
export async function stdioClient(registry: string, extraArgs: string[] = [], cwd?: string) {
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--registry', registry, ...extraArgs],
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...testConfigEnv() },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    stderr += c;
  });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/**
 * Start `toolbox serve --http 0 --json` and read its URL from the one JSON document on stdout. Its
 * token is made in a fresh state folder (XDG_STATE_HOME) and read back: `headers` carry it.
 */
export async function httpServe(registry: string, extraArgs: string[] = [], env: Record<string, string> = {}) {
  const state = mkdtempSync(join(tmpdir(), 'toolbox-state-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--registry', registry, '--http', '0', '--json', ...extraArgs], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...testConfigEnv(),
      XDG_STATE_HOME: state,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    err += c;
  });
  type Doc = { url: string; auth: { mode: string; file?: string; sameUser?: boolean } };
  const doc = await new Promise<Doc>((res, rej) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      try {
        res(JSON.parse(out) as Doc);
      } catch {
        /* not complete yet */
      }
    });
    child.once('exit', (code) => rej(new Error(`serve exited ${code}: ${err}`)));
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  void exited.then(() => rmSync(state, { recursive: true, force: true }));
  const token = doc.auth.file ? readFileSync(doc.auth.file, 'utf8').trim() : (env.TBX_TOKEN ?? undefined);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return { url: doc.url, auth: doc.auth, token, headers, child, exited, stderr: () => err };
}

/** Pids of live processes whose command line mentions `needle`. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) pids.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** The structured toolbox error of an isError result. */
export const errCode = (r: { structuredContent?: unknown; _meta?: unknown }) =>
  (r._meta as Record<string, { code: string }> | undefined)?.['toolbox/error']?.code ??
  (r.structuredContent as { error?: { code: string } } | undefined)?.error?.code;

function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

/** Every live (not zombie) descendant of `root`. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = stat(Number(name));
    if (!st) continue;
    children.set(st.ppid, [...(children.get(st.ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Whether `pid` is still running (zombies count as gone). */
export function running(pid: number): boolean {
  const st = stat(pid);
  return st !== undefined && st.state !== 'Z';
}

export const MODERN = '2026-07-28';

/**
 * One 2026-07-28 request by hand (the wire as the specification writes it): the `_meta` envelope,
 * the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers. Returns the HTTP status and the JSON-RPC
 * messages of the response (one JSON body, or every event of an SSE stream).
 */
export async function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  o: { meta?: Record<string, unknown>; headers?: Record<string, string>; id?: number; signal?: AbortSignal } = {},
): Promise<{ status: number; messages: Record<string, any>[]; final?: Record<string, any> }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    ...o.meta,
  };
  const name = typeof params.name === 'string' ? params.name : undefined;
  const res = await fetch(url, {
    method: 'POST',
    signal: o.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...o.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: o.id ?? 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as Record<string, any>)
    : text
      ? [JSON.parse(text) as Record<string, any>]
      : [];
  return { status: res.status, messages, final: messages.find((m) => 'result' in m || 'error' in m) };
}

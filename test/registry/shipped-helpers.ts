// Helpers for the shipped-registry tests: call a tool's implementation directly (without the
// toolbox runtime), the way its loader would, so the tools are tested on their own.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { REPO } from '../helpers.js';

export const REGISTRY = join(REPO, 'tool_registry');

/** Every shipped contract (the MCP ones included), parsed. */
export function shippedContracts(): Record<string, any>[] {
  return readdirSync(REGISTRY)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ ...parse(readFileSync(join(REGISTRY, f), 'utf8')), __file: f }));
}

export type Outcome = { ok: true; value: any } | { ok: false; type: string; error: string };

const PY_CALL = `
import importlib, json, sys
spec = json.loads(sys.stdin.read())
try:
    fn = getattr(importlib.import_module(spec["module"]), spec["function"])
    out = {"ok": True, "value": fn(**spec["args"])}
except Exception as e:
    out = {"ok": False, "type": type(e).__name__, "error": str(e)}
sys.stdout.write(json.dumps(out, ensure_ascii=False))
`;

/** Run stdin through a child and collect stdout (async: tests serve HTTP/SMTP in this process). */
export function runChild(
  cmd: string,
  argv: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      argv,
      {
        cwd: REPO,
        // No __pycache__ in the repository's my_tools/.
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          PYTHONDONTWRITEBYTECODE: '1',
          ...env,
        },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    child.stdin!.on('error', () => {}); // a child that exits without reading stdin: EPIPE is expected
    child.stdin!.end(input);
  });
}

let python: Promise<string> | undefined;
/** The real interpreter behind `python3` (a pyenv shim costs ~80 ms per start). */
export function pythonPath(): Promise<string> {
  python ??= runChild('python3', ['-c', 'import sys; print(sys.executable)'], '').then(
    (r) => r.stdout.trim() || 'python3',
  );
  return python;
}

/** Call `module.function(**args)` in a real python3 with the project root on sys.path. */
export async function callPython(
  module: string,
  fn: string,
  args: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Outcome> {
  const r = await runChild(await pythonPath(), ['-c', PY_CALL], JSON.stringify({ module, function: fn, args }), env);
  if (r.code !== 0) throw new Error(`python3 failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Outcome;
}

/** Call a shipped python tool by contract id with `args`. */
export async function callTool(
  id: string,
  args: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<Outcome> {
  const c = shippedContracts().find((x) => x.id === id);
  if (!c) throw new Error(`no shipped contract ${id}`);
  return callPython(c.loader_config.module, c.loader_config.function, args, env);
}

/** Import a node_module tool's export and call it with the args object, as the node loader does. */
export async function callNode(id: string, args: Record<string, unknown>): Promise<Outcome> {
  const c = shippedContracts().find((x) => x.id === id)!;
  const mod = await import(pathToFileURL(join(REPO, c.loader_config.module)).href);
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(await mod[c.loader_config.function ?? 'default'](args))) };
  } catch (e) {
    return { ok: false, type: (e as Error).name, error: (e as Error).message };
  }
}

/** Run a command tool's argv/stdin templates with `args` substituted per element (no shell). */
export async function callCommand(
  id: string,
  args: Record<string, unknown>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = shippedContracts().find((x) => x.id === id)!;
  const sub = (s: string) => s.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(args[k] ?? ''));
  const [cmd, ...argv] = (c.loader_config.argv as string[]).map(sub);
  return runChild(cmd!, argv, c.loader_config.stdin ? sub(c.loader_config.stdin) : '');
}

/** A port on 127.0.0.1 with nothing listening (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export function listen(server: Server | import('node:http').Server): Promise<number> {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
}

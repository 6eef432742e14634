// The model, stood in for: a loopback HTTP server that answers each request with the next recorded
// provider response (written in the provider's documented wire format) and keeps every request, so
// a test can read what the SDK really sent. Everything else in an example runs for real: the SDK's
// own HTTP client, toolbox's selector and Runtime, the tool in the sandbox.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { REPO, testConfigEnv, testConfigHome } from '../helpers.js';

/** One recorded answer: for a request to `path` (e.g. `/v1/chat/completions`), this JSON body. */
export interface Recorded {
  path: string;
  body: unknown;
  status?: number;
}
/** A request the SDK made. */
export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface Replay {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** Serve `script` in order; a request that does not match the next entry gets a 500 saying so. */
export async function replay(script: Recorded[]): Promise<Replay> {
  const seen: Seen[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // kept as text
      }
      const path = (req.url ?? '').split('?')[0]!;
      seen.push({ method: req.method ?? '', path, headers: req.headers, body });
      const want = script[next];
      if (!want || want.path !== path) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `replay: unexpected ${req.method} ${path} (next: ${want?.path})` } }),
        );
        return;
      }
      next++;
      res.writeHead(want.status ?? 200, { 'content-type': 'application/json', 'x-request-id': `req_${next}` });
      res.end(JSON.stringify(want.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A temp copy of the shipped example project (registry, tools, config): state goes there, not the repo. */
export function shippedProject(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-examples-'));
  for (const p of ['tool_registry', 'my_tools', 'toolbox.config.yaml'])
    cpSync(join(REPO, p), join(dir, p), { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run `node examples/<file> <question>` (or a script by absolute path) as a user would, in `cwd`, with `env` on top of ours. */
export function runExample(
  file: string,
  question: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; node?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  testConfigHome();
  return new Promise((resolve, reject) => {
    const script = isAbsolute(file) ? file : join(REPO, 'examples', file);
    const child = spawn(opts.node ?? process.execPath, [script, question], {
      cwd: opts.cwd,
      env: { ...process.env, ...testConfigEnv(), NO_PROXY: '127.0.0.1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The project's call log: one record per call that reached the pipeline. */
export function callLog(dir: string): { tool: string; ok: boolean; sandbox?: string; via?: string; outcome: string }[] {
  const file = join(dir, '.toolbox', 'calls.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

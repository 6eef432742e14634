// A registry for the scale-out tests: a tool that waits (I/O-bound), one that always fails (to open
// its breaker), one that answers at once, and a config whose breaker opens after 3 failures.
import { join } from 'node:path';
import { tempProject } from '../helpers.js';

export const contract = (id: string, fn: string, description: string, schema: string, extra = '') => `id: ${id}
name: ${id}
description: ${description}
schema:
${schema}
loader: python_function
loader_config:
  module: scale_tools.tools
  function: ${fn}
${extra}`;

const TOOLS = `import time
from toolbox_tool import background

def nap(seconds):
    time.sleep(seconds)
    return {"slept": seconds}

def fail(text):
    raise RuntimeError("this tool always fails: " + text)

def echo(text):
    return {"echo": text}

def build(seconds):
    background()
    time.sleep(seconds)
    return {"built": seconds}
`;

export const TEXT = `  type: object
  properties:
    text: { type: string, description: any text }
  required: [text]`;

export function scaleProject() {
  const p = tempProject({
    'toolbox.config.yaml': 'runtime:\n  breaker: { failures: 3, window: 60, cooldown: 30 }\n',
    'scale_tools/__init__.py': '',
    'scale_tools/tools.py': TOOLS,
    'tool_registry/nap.yaml': contract(
      'nap',
      'nap',
      'Wait for some seconds, then answer. Use to test slow calls.',
      '  type: object\n  properties:\n    seconds: { type: number, description: how long to wait }\n  required: [seconds]',
      'timeout: 30\n',
    ),
    'tool_registry/flaky.yaml': contract('flaky', 'fail', 'A tool that always fails. Use to test the breaker.', TEXT),
    'tool_registry/echo_text.yaml': contract('echo_text', 'echo', 'Repeat a text back. Use for an echo.', TEXT),
    'tool_registry/build.yaml': contract(
      'build',
      'build',
      'A long job that goes to the background. Use to test tasks.',
      '  type: object\n  properties:\n    seconds: { type: number, description: how long it takes }\n  required: [seconds]',
      'timeout: 60\nmcp: { task: optional }\n',
    ),
  });
  return { ...p, registry: join(p.dir, 'tool_registry') };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'scale-test', version: '1.0.0' },
};

/** One 2026-07-28 tools/call (stateless: any replica may answer). Never hangs past `timeoutMs`. */
export async function callTool(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<{
  status: number;
  retryAfter?: string | null;
  /** The replica HAProxy sent the call to (its X-Served-By), also on HAProxy's own 502/503. */
  servedBy?: string | null;
  /** Why there was no answer (status 0): the network error's code. */
  cause?: string;
  result?: Record<string, any>;
  error?: Record<string, any>;
}> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: args, _meta: META },
      }),
    });
  } catch (e) {
    // The connection was closed without an answer (status 0): an answer all the same, not a hang.
    if ((e as Error).name === 'TimeoutError') throw e;
    return { status: 0, cause: causeOf(e) };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') throw e;
    return { status: 0, cause: causeOf(e), servedBy: res.headers.get('x-served-by') }; // cut mid-body (the replica died while its answer streamed)
  }
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(
      (res.headers.get('content-type') ?? '').includes('text/event-stream')
        ? (text
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .pop()
            ?.slice(5) ?? '{}')
        : text || '{}',
    ) as Record<string, any>;
  } catch {
    /* HAProxy's own error page */
  }
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    servedBy: res.headers.get('x-served-by'),
    result: body.result,
    error: body.error,
  };
}

const causeOf = (e: unknown) => {
  const c = (e as { cause?: { code?: string; message?: string } }).cause;
  return c?.code ?? c?.message ?? (e as Error).message;
};

/** The toolbox error code of an isError result. */
export const errorCode = (r?: Record<string, any>): string | undefined =>
  r?._meta?.['toolbox/error']?.code ?? r?.structuredContent?.error?.code;

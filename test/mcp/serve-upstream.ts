// A real 2026-07-28 MCP server for the client-side tests: toolbox's own `serve --http` on a small
// registry of Node tools (a 2020-12 tuple schema; a tool that asks its caller, reports progress and
// logs), started as a child process on loopback.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../helpers.js';

export const UPSTREAM_TOOLS = `
export function pair({ pair }) {
  return pair[0] + ' x' + pair[1];
}

export async function greet({ greeting }, tool) {
  tool.progress(1, 3, 'asking');
  tool.log('info', 'greet: asking for a name');
  const a = await tool.ask({
    name: tool.question.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
    mood: tool.question.sample('Say something nice', { maxTokens: 20 }),
  });
  tool.progress(3, 3, 'done');
  const llm = a.mood?.content?.text ?? '?';
  return (greeting ?? 'Hello') + ', ' + (a.name?.content?.name ?? 'nobody') + '! ' + llm;
}
`;

const CONTRACTS: Record<string, string> = {
  'pair.yaml': `id: pair
name: pair
description: Say a name and a count, given as a pair.
schema:
  $schema: https://json-schema.org/draft/2020-12/schema
  type: object
  properties:
    pair:
      type: array
      prefixItems: [{ type: string }, { type: integer }]
      items: false
      minItems: 2
  required: [pair]
  additionalProperties: false
loader: node_module
loader_config: { module: tools/up.mjs, function: pair }
`,
  'greet.yaml': `id: greet
name: greet
description: Ask the caller for a name and the caller's LLM for a kind word, then greet.
schema:
  type: object
  properties:
    greeting: { type: string }
  additionalProperties: false
loader: node_module
loader_config: { module: tools/up.mjs, function: greet }
`,
};

/** `toolbox serve --http 0 --no-auth --expose all` on the upstream registry (with `extra` tools and contracts). */
export async function serveUpstream(
  extra: { tools?: string; contracts?: Record<string, string> } = {},
): Promise<{ url: string; dir: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolbox-upstream-'));
  mkdirSync(join(dir, 'tool_registry'));
  mkdirSync(join(dir, 'tools'));
  writeFileSync(join(dir, 'tools', 'up.mjs'), UPSTREAM_TOOLS + (extra.tools ?? ''));
  for (const [f, text] of Object.entries({ ...CONTRACTS, ...extra.contracts }))
    writeFileSync(join(dir, 'tool_registry', f), text);
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'bin', 'toolbox.js'),
      'serve',
      '--registry',
      join(dir, 'tool_registry'),
      '--http',
      '0',
      '--json',
      '--no-auth',
      '--expose',
      'all',
    ],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((r) => child.once('exit', r));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      try {
        resolve((JSON.parse(out) as { url: string }).url);
      } catch {
        /* not complete yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    dir,
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

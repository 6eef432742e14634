// TypeScript users get the same short loops: each provider's objects (the openai SDK's tool calls,
// Responses items, Anthropic content blocks) go into the helpers as they are, and what comes back
// fits the next request's types. Compiles test/fixtures/examples-types/loops.mts, strict, against
// the built package (resolved by name, as an install would) and the real SDK type definitions.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolbox-example-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the agent helpers under strict TypeScript with the real SDK types', () => {
  it('compile without casts but the one the Agents SDK needs', () => {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules', 'agent-toolbox'));
    for (const p of ['openai', '@anthropic-ai', 'ai', '@ai-sdk', '@langchain', '@openai', 'zod'])
      symlinkSync(join(REPO, 'node_modules', p), join(dir, 'node_modules', p));
    copyFileSync(join(REPO, 'test', 'fixtures', 'examples-types', 'loops.mts'), join(dir, 'loops.mts'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: [],
          // The SDKs' own .d.ts files expect @types/node; toolbox's are checked by the pack smoke test.
          skipLibCheck: true,
          noEmit: true,
        },
        files: ['loops.mts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});

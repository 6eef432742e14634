// README's "Use it from your agent" loop, run as written (the real `openai` SDK against recorded
// Chat Completions responses), and its links: every example file it names exists and is tested.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { callLog, replay, runExample, shippedProject, type Replay } from './replay.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('\n## Use it from your agent\n'));
const snippet = /```js\n([\s\S]*?)```/.exec(section)![1]!;

let server: Replay | undefined;
let project: ReturnType<typeof shippedProject> | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const chat = (message: object, finish: string) => ({
  id: `chatcmpl-${finish}`,
  object: 'chat.completion',
  created: 1767225600,
  model: 'gpt-5.4',
  choices: [{ index: 0, message: { refusal: null, ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 },
});

describe("README's agent section", () => {
  it('links each example, and each example has a test here', () => {
    const files = readdirSync(join(REPO, 'examples')).filter((f) => f.endsWith('.mjs'));
    expect(files.length).toBe(6);
    const tests = readdirSync(join(REPO, 'test', 'examples'))
      .map((f) => readFileSync(join(REPO, 'test', 'examples', f), 'utf8'))
      .join('\n');
    for (const f of files) {
      expect(section).toContain(`](examples/${f})`);
      expect(tests).toContain(`'${f}'`);
    }
    expect(section.slice(0, section.indexOf('\n## ', 5))).not.toMatch(/\bsrc\//);
  });

  it('runs its loop as written: the selected tool runs in the sandbox, the answer is printed', async () => {
    server = await replay([
      {
        path: '/v1/chat/completions',
        body: chat(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_r1',
                type: 'function',
                function: { name: 'convert_units', arguments: '{"value":26.2,"from_unit":"mi","to_unit":"km"}' },
              },
            ],
          },
          'tool_calls',
        ),
      },
      { path: '/v1/chat/completions', body: chat({ role: 'assistant', content: 'About 42.16 km.' }, 'stop') },
    ]);
    project = shippedProject();
    // The snippet as a user's file, resolving the packages as an install would.
    scratch = mkdtempSync(join(tmpdir(), 'toolbox-readme-'));
    mkdirSync(join(scratch, 'node_modules'));
    symlinkSync(REPO, join(scratch, 'node_modules', 'agent-toolbox'));
    symlinkSync(join(REPO, 'node_modules', 'openai'), join(scratch, 'node_modules', 'openai'));
    writeFileSync(join(scratch, 'agent.mjs'), snippet);
    const r = await runExample(join(scratch, 'agent.mjs'), '', {
      cwd: project.dir,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('About 42.16 km.');
    expect(callLog(project.dir)).toEqual([expect.objectContaining({ tool: 'convert_units', ok: true })]);
    expect(server.seen[1]!.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_r1',
      content: '26.2 mi = 42.1648 km',
    });
  });
});

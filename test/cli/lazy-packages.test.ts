// The direct start-up path of the real binary loads no package it does not need: a warm `select`
// and a `run` of a tool without patterns (with a toolbox.config.yaml present) load neither the
// YAML parser, nor RE2, nor commander. A contract with a `pattern` does load RE2 (so the probe can
// see a load when there is one). Checked with a require/import probe preloaded into the process.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, tempProject } from '../helpers.js';

const WATCH = ['yaml', 're2js', 'commander'];
const tool = (id: string, extra = '') => `id: ${id}
name: ${id}
description: Returns the text unchanged. Use when the user asks to repeat a text back.
schema: { type: object, properties: { text: { type: string, description: The text.${extra} } }, required: [text] }
loader: python_function
loader_config: { module: tools.echo, function: echo }
`;
const p = tempProject({
  'toolbox.config.yaml': 'registry: tool_registry\nruntime:\n  timeout: 30s\n',
  'tools/__init__.py': '',
  'tools/echo.py': 'def echo(text):\n    return text\n',
  'tool_registry/echo.yaml': tool('echo'),
  'tool_registry/echo_word.yaml': tool('echo_word', ', pattern: "^[a-z]+$"'),
  'hooks.mjs': `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  appendFileSync(process.env.PROBE_LOG, specifier + '\\n');
  return next(specifier, context);
}
`,
  'probe.mjs': `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
const load = Module._load;
Module._load = function (request, ...rest) {
  appendFileSync(process.env.PROBE_LOG, request + '\\n');
  return load.call(this, request, ...rest);
};
`,
});
afterAll(() => p.cleanup());

let n = 0;
/** The watched packages the command loaded (its exit code must be 0). */
function loaded(argv: string[]): Promise<string[]> {
  const log = join(p.dir, `probe-${n++}.log`);
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(join(p.dir, 'probe.mjs')).href, BIN, ...argv],
      { cwd: p.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, PROBE_LOG: log } },
      (err, _out, stderr) => {
        if (err) return rej(new Error(`${argv.join(' ')}: ${err.message} ${stderr}`));
        const names = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
        res(WATCH.filter((w) => names.includes(w)));
      },
    );
  });
}

describe('the direct path of select and run', () => {
  it('loads no yaml, RE2 or commander once the caches are warm', async () => {
    await loaded(['select', 'repeat this text', '--json']); // builds the index and the config cache
    await loaded(['run', 'echo', '--text', 'hi']); // the id index, interpreter and deps caches
    expect(await loaded(['select', 'repeat this text', '--json'])).toEqual([]);
    expect(await loaded(['run', 'echo', '--text', 'hi'])).toEqual([]);
  });

  it('loads RE2 for a tool whose arguments have a pattern', async () => {
    await loaded(['run', 'echo_word', '--text', 'hi']);
    expect(await loaded(['run', 'echo_word', '--text', 'hi'])).toEqual(['re2js']);
  });
});

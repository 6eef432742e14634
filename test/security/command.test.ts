// Item 9: a caller's value never reaches a command as an option.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers.js';
import { expected } from './cases.js';
import { contract, project, scratch } from './helpers.js';

const out = scratch();
const p = project({
  'tool_registry/log.yaml': contract('log', 'command', '{ argv: [git, "--no-pager", log, "-1", "{{x}}"] }'),
  'tool_registry/log_safe.yaml': contract('log_safe', 'command', '{ argv: [/bin/echo, "--", "{{x}}"] }'),
  'tool_registry/num.yaml': contract('num', 'command', '{ argv: [/bin/echo, "{{x}}"] }').replace(
    /^schema: .*$/m,
    'schema: { type: object, properties: { x: { type: string, pattern: "^-?[0-9]+$" } } }',
  ),
});
afterAll(() => {
  p.cleanup();
  out.cleanup();
});

describe('item 9: option injection into commands', () => {
  it("a value starting with '-' is refused (exit 2) and git never runs with it", async () => {
    expect(expected('command-option-injection', 'bwrap')).toBe('blocked');
    const target = join(out.dir, 'pwned.txt');
    const r = await cli(['run', 'log', `--x=--output=${target}`, '--json'], { cwd: p.dir });
    expect([r.code, r.errorJson?.error.code]).toEqual([2, 'argument_option_injection']);
    expect(existsSync(target)).toBe(false);
  });

  it("after a literal '--', or when the schema constrains the value, it is passed as data", async () => {
    const a = await cli(['run', 'log_safe', '--x=--help', '--json'], { cwd: p.dir });
    expect([a.code, a.json?.result]).toEqual([0, '-- --help']);
    const b = await cli(['run', 'num', '--x=-5', '--json'], { cwd: p.dir });
    expect([b.code, b.json?.result]).toEqual([0, -5]);
  });
});

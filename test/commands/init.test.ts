import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempProject } from '../helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
const project = () => {
  const p = tempProject();
  cleanups.push(p.cleanup);
  return p;
};

describe('toolbox init', () => {
  it('without a TTY uses defaults and creates a config, a registry and a working example that validates', async () => {
    const p = project();
    const r = await cli(['init', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.created.map((f: { role: string }) => f.role)).toEqual(['config', 'contract', 'implementation']);
    expect(existsSync(join(p.dir, 'toolbox.config.yaml'))).toBe(true);
    expect(existsSync(join(p.dir, 'tool_registry', 'word_count.yaml'))).toBe(true);
    expect(existsSync(join(p.dir, 'my_tools', 'word_count.py'))).toBe(true);
    const v = await cli(['validate', '--json', '--fail-on', 'warning'], { cwd: p.dir });
    expect(v.json.diagnostics).toEqual([]);
    expect(v.code).toBe(0);
  });

  it('puts .toolbox/ into .gitignore once: creates it, appends to an existing one, never twice', async () => {
    const a = project();
    expect((await cli(['init', '--json'], { cwd: a.dir })).json.gitignore).toBe('created');
    expect(readFileSync(join(a.dir, '.gitignore'), 'utf8')).toBe('.toolbox/\n');
    const b = project();
    writeFileSync(join(b.dir, '.gitignore'), 'node_modules/');
    expect((await cli(['init', '--json'], { cwd: b.dir })).json.gitignore).toBe('updated');
    expect(readFileSync(join(b.dir, '.gitignore'), 'utf8')).toBe('node_modules/\n.toolbox/\n');
    await cli(['init', '--force', '--json'], { cwd: b.dir });
    expect(readFileSync(join(b.dir, '.gitignore'), 'utf8')).toBe('node_modules/\n.toolbox/\n');
  });

  it('every commented example in the generated config is valid once uncommented', async () => {
    const p = project();
    await cli(['init', '--yes'], { cwd: p.dir });
    const file = join(p.dir, 'toolbox.config.yaml');
    const text = readFileSync(file, 'utf8');
    const examples = text.split('\n').filter((l) => /^\s+# \S+: /.test(l));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const line of examples) {
      writeFileSync(file, text.replace(line, line.replace('# ', '')));
      const v = await cli(['validate', '--json'], { cwd: p.dir });
      expect(v.code, `${line}: ${v.stderr}`).not.toBe(3); // 3 = broken config
    }
    writeFileSync(file, text.replace(/^([ ]+)# /gm, '$1'));
    expect((await cli(['validate', '--json'], { cwd: p.dir })).code).not.toBe(3);
  });

  it('prints a Next: line that runs as printed', async () => {
    const p = project();
    const r = await cli(['init', '--yes'], { cwd: p.dir, env: { npm_command: 'exec' } });
    const next = /^Next: (.*)$/m.exec(r.stderr)![1]!;
    expect(next).toBe('npx toolbox validate && npx toolbox run word_count --text "hello big world"');
  });

  it('takes DIR, --registry-dir, --loader and --tool', async () => {
    const p = project();
    const r = await cli(
      ['init', 'sub/proj', '--yes', '--registry-dir', 'tools', '--loader', 'node_module', '--tool', 'count_words'],
      { cwd: p.dir },
    );
    expect(r.code).toBe(0);
    const dir = join(p.dir, 'sub', 'proj');
    expect(readdirSync(join(dir, 'tools'))).toEqual(['count_words.yaml']);
    expect(existsSync(join(dir, 'my_tools', 'count_words', 'count_words.mjs'))).toBe(true);
    expect(readFileSync(join(dir, 'toolbox.config.yaml'), 'utf8')).toContain('registry: "tools"');
    const v = await cli(['validate', '--json'], { cwd: dir });
    expect(v.json.summary).toMatchObject({ tools: 1, errors: 0 });
  });

  it("run twice keeps the user's edited files byte for byte and exits non-zero naming them", async () => {
    const p = project();
    expect((await cli(['init', '--yes'], { cwd: p.dir })).code).toBe(0);
    const files = ['toolbox.config.yaml', 'tool_registry/word_count.yaml', 'my_tools/word_count.py'].map((f) =>
      join(p.dir, f),
    );
    const edited = files.map((f, i) =>
      Buffer.concat([readFileSync(f), Buffer.from(`\n# edited by the user ${i} ✓\n`), Buffer.from([0xc3, 0xa9])]),
    );
    files.forEach((f, i) => writeFileSync(f, edited[i]!));
    const r = await cli(['init', '--yes', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('file_exists');
    expect(r.stdout).toBe(''); // one JSON document in all: the error object on stderr
    expect(r.errorJson.error.details.kept).toHaveLength(3);
    expect(r.errorJson.error.details.created).toEqual([]);
    files.forEach((f, i) => expect(readFileSync(f).equals(edited[i]!)).toBe(true));
    const human = await cli(['init', '--yes'], { cwd: p.dir });
    expect(human.code).toBe(2);
    expect(human.stdout).toContain('kept');
    expect(human.stderr).toContain('tool_registry/word_count.yaml');
  });

  it('creates only what is missing, and --force overwrites', async () => {
    const p = project();
    await cli(['init', '--yes'], { cwd: p.dir });
    const impl = join(p.dir, 'my_tools', 'word_count.py');
    const config = join(p.dir, 'toolbox.config.yaml');
    const original = readFileSync(impl, 'utf8');
    writeFileSync(impl, 'edited');
    writeFileSync(config, 'registry: tool_registry\n# mine\n');
    const r = await cli(['init', '--yes', '--force', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.overwritten).toHaveLength(3);
    expect(readFileSync(impl, 'utf8')).toBe(original);
    expect(readdirSync(join(p.dir, 'my_tools')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects an invalid tool id or registry folder with exit 2 and writes nothing', async () => {
    const p = project();
    const r = await cli(['init', '--yes', '--tool', '9bad id', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('invalid_tool_id');
    const r2 = await cli(['init', '--yes', '--registry-dir', '../outside'], { cwd: p.dir });
    expect(r2.code).toBe(2);
    expect(readdirSync(p.dir)).toEqual([]);
  });
});

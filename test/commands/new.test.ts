import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { cli, tempProject, REPO } from '../helpers.js';
import { schemaRef, identifierFor } from '../../src/scaffold/tool.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});
const project = () => {
  const p = tempProject({ 'tool_registry/.keep': '' });
  cleanups.push(p.cleanup);
  return p;
};
const LOADERS = ['python_function', 'node_module', 'command', 'http', 'mcp'];
const DESCRIPTION =
  'Look up the opening hours of a shop by its name and city. Use it when the user asks whether a shop is open.';

describe('toolbox new', () => {
  it.each(LOADERS)(
    'scaffolds a %s tool whose contract validates without errors and points at the schema',
    async (loader) => {
      const p = project();
      const r = await cli(['new', `my_${loader}`, '--loader', loader, '--description', DESCRIPTION, '--json'], {
        cwd: p.dir,
      });
      expect(r.code).toBe(0);
      expect(r.json.diagnostics).toEqual([]);
      const contractFile = join(p.dir, 'tool_registry', `my_${loader}.yaml`);
      const text = readFileSync(contractFile, 'utf8');
      const m = /^# yaml-language-server: \$schema=(.+)\n/.exec(text);
      expect(m).not.toBeNull();
      expect(resolve(dirname(contractFile), m![1]!)).toBe(join(REPO, 'schemas', 'contract.schema.json'));
      expect(parse(text).loader).toBe(loader);
      // Every scaffold states its behaviour for MCP clients.
      expect(parse(text).annotations).toMatchObject({ readOnlyHint: true });
      const v = await cli(['validate', '--json', '--fail-on', 'warning'], { cwd: p.dir });
      expect(v.json.summary).toMatchObject({ tools: 1, errors: 0, warnings: 0 });
    },
  );

  it("without --description writes a TODO naming the tool (not the stub's description)", async () => {
    const p = project();
    await cli(['new', 'first', '--json'], { cwd: p.dir });
    const r = await cli(['new', 'second', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.diagnostics.map((d: { rule: string }) => d.rule)).toContain('description-placeholder');
    const a = parse(readFileSync(join(p.dir, 'tool_registry', 'first.yaml'), 'utf8')).description;
    const b = parse(readFileSync(join(p.dir, 'tool_registry', 'second.yaml'), 'utf8')).description;
    expect(b).toContain('second');
    expect(a).not.toBe(b);
    const v = await cli(['validate', '--json'], { cwd: p.dir });
    expect(v.code).toBe(1);
  });

  it('python stub runs as function(**args) from the project root', async () => {
    const p = project();
    await cli(['new', 'count-words.v2', '--loader', 'python_function'], { cwd: p.dir });
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'count-words.v2.yaml'), 'utf8'));
    expect(c.loader_config).toEqual({ module: 'my_tools.count_words_v2', function: 'count_words_v2' });
    const out = execFileSync(
      'python3',
      [
        '-c',
        `import json, importlib; m = importlib.import_module(${JSON.stringify(c.loader_config.module)}); print(json.dumps(getattr(m, ${JSON.stringify(c.loader_config.function)})(**{"text": "hello big\\nworld"})))`,
      ],
      { cwd: p.dir, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ words: 3, characters: 15, lines: 2 });
  });

  it('node stub runs as export(args)', async () => {
    const p = project();
    await cli(['new', 'count', '--loader', 'node_module'], { cwd: p.dir });
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'count.yaml'), 'utf8'));
    const mod = await import(pathToFileURL(join(p.dir, c.loader_config.module)).href);
    expect(await mod[c.loader_config.function]({ text: 'hello big\nworld\n' })).toEqual({
      words: 3,
      characters: 16,
      lines: 2,
    });
  });

  it('command stub runs its argv with the placeholder filled in', async () => {
    const p = project();
    await cli(['new', 'to_utc', '--loader', 'command'], { cwd: p.dir });
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'to_utc.yaml'), 'utf8'));
    const argv = (c.loader_config.argv as string[]).map((a) => a.replace('{{when}}', '2024-05-01 14:00 +0800'));
    expect(execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8' }).trim()).toBe('2024-05-01T06:00:00Z');
  });

  it('uses --description and --name, any language', async () => {
    const p = project();
    const desc = '把一段中文翻译成英文: 当用户需要英文版本时使用。"引号" \\ 也可以';
    const r = await cli(['new', 'translate', '--description', desc, '--name', '翻译 "zh→en"'], { cwd: p.dir });
    expect(r.code).toBe(0);
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'translate.yaml'), 'utf8'));
    expect(c.description).toBe(desc);
    expect(c.name).toBe('翻译 "zh→en"');
  });

  it('reports lint findings about a vague --description', async () => {
    const p = project();
    const r = await cli(['new', 'files', '--description', 'handles files', '--json'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.json.diagnostics.map((d: { rule: string }) => d.rule)).toContain('description-vague');
  });

  it('rejects an invalid id with exit 2', async () => {
    const p = project();
    const r = await cli(['new', 'bad id!', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('invalid_tool_id');
  });

  it('refuses to overwrite, writing nothing, unless --force', async () => {
    const p = project();
    await cli(['new', 'count', '--loader', 'node_module'], { cwd: p.dir });
    const impl = join(p.dir, 'my_tools', 'count.mjs');
    writeFileSync(impl, '// mine\n');
    rmContract(p.dir, 'count');
    const r = await cli(['new', 'count', '--loader', 'node_module', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('file_exists');
    expect(r.errorJson.error.message).toContain('my_tools/count.mjs');
    expect(existsSync(join(p.dir, 'tool_registry', 'count.yaml'))).toBe(false);
    expect(readFileSync(impl, 'utf8')).toBe('// mine\n');
    const f = await cli(['new', 'count', '--loader', 'node_module', '--force'], { cwd: p.dir });
    expect(f.code).toBe(0);
    expect(readFileSync(impl, 'utf8')).toContain('export async function count');
  });

  it('refuses an id another contract already has', async () => {
    const p = project();
    await cli(['new', 'count', '--loader', 'command'], { cwd: p.dir });
    const c = readFileSync(join(p.dir, 'tool_registry', 'count.yaml'));
    writeFileSync(join(p.dir, 'tool_registry', 'other.yaml'), c);
    rmContract(p.dir, 'count');
    const r = await cli(['new', 'count', '--loader', 'command', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('duplicate_id');
  });

  it('makes identifiers safe for Python and JavaScript', () => {
    expect(identifierFor('send-mail.v2')).toBe('send_mail_v2');
    expect(identifierFor('delete')).toBe('delete_tool');
    expect(identifierFor('class')).toBe('class_tool');
  });

  it('points $schema relatively when the schema is inside the project, absolutely otherwise', () => {
    expect(schemaRef(join(REPO, 'tool_registry', 'x.yaml'), REPO)).toBe('../schemas/contract.schema.json');
    expect(schemaRef('/tmp/elsewhere/tool_registry/x.yaml', '/tmp/elsewhere')).toBe(
      join(REPO, 'schemas', 'contract.schema.json'),
    );
  });
});

function rmContract(dir: string, id: string) {
  execFileSync('rm', [join(dir, 'tool_registry', `${id}.yaml`)]);
}

describe('schemaRef', () => {
  it("points at the installed package's schema when the project has one, relative to the contract", () => {
    const p = tempProject({ 'node_modules/agent-toolbox/schemas/contract.schema.json': '{}' });
    try {
      expect(schemaRef(join(p.dir, 'tool_registry', 'a.yaml'), p.dir)).toBe(
        '../node_modules/agent-toolbox/schemas/contract.schema.json',
      );
      expect(schemaRef(join(p.dir, 'tool_registry', 'sub', 'a.yaml'), p.dir)).toBe(
        '../../node_modules/agent-toolbox/schemas/contract.schema.json',
      );
    } finally {
      p.cleanup();
    }
  });
});

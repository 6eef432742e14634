import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { cli, tempProject, REPO } from '../helpers.js';
import { publishedSchemaUrl, schemaRef, identifierFor } from '../../src/scaffold/tool.js';

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
    'scaffolds a generic %s stub (not another tool) that validate flags until its TODOs are filled in',
    async (loader) => {
      const p = project();
      const r = await cli(['new', `my_${loader}`, '--loader', loader, '--description', DESCRIPTION, '--json'], {
        cwd: p.dir,
      });
      expect(r.code).toBe(0);
      // The stub's one parameter is a TODO: new says so at once, validate fails on it.
      expect(r.json.diagnostics.map((d: { rule: string; path: string }) => `${d.rule} ${d.path}`)).toEqual([
        'description-placeholder schema.properties.input.description',
      ]);
      const contractFile = join(p.dir, 'tool_registry', `my_${loader}.yaml`);
      const text = readFileSync(contractFile, 'utf8');
      const m = /^# yaml-language-server: \$schema=(.+)\n/.exec(text);
      expect(m).not.toBeNull();
      // A project without toolbox installed in it: the published schema of this version, no path of this machine.
      expect(m![1]).toBe(publishedSchemaUrl());
      expect(m![1]).toMatch(
        /^https:\/\/cdn\.jsdelivr\.net\/npm\/agent-toolbox@\d+\.\d+\.\d+\/schemas\/contract\.schema\.json$/,
      );
      const c = parse(text);
      expect(c.loader).toBe(loader);
      expect(c.description).toBe(DESCRIPTION);
      // Nothing of init's word counter: no `text` parameter, no output schema, no claims about behaviour.
      expect(Object.keys(c.schema.properties)).toEqual(['input']);
      expect(c.output_schema).toBeUndefined();
      expect(c.annotations).toBeUndefined();
      const v = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
      expect(v.code).toBe(1);
      expect(v.json.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toHaveLength(1);
      // Filled in: clean.
      writeFileSync(
        contractFile,
        text.replace(
          '"TODO: what this argument is, its format and an example."',
          "The shop's name and city, e.g. Lidl Lyon.",
        ),
      );
      const ok = await cli(['validate', '--json', '--no-routing'], { cwd: p.dir });
      expect(ok.json.summary).toMatchObject({ tools: 1, errors: 0 });
      expect(ok.code).toBe(0);
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

  it('the python stub runs, says it is a stub, and runs the code once it is written', async () => {
    const p = project();
    const made = await cli(['new', 'count-words.v2', '--loader', 'python_function'], { cwd: p.dir });
    expect(made.stderr).toMatch(/Next: fill in the TODOs of .* then: .* run count-words\.v2 --help/);
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'count-words.v2.yaml'), 'utf8'));
    expect(c.loader_config).toEqual({ module: 'my_tools.count_words_v2', function: 'count_words_v2' });
    const stub = await cli(['run', 'count-words.v2', '--input', 'a b', '--json'], { cwd: p.dir });
    expect(stub.code).toBe(4);
    expect(stub.errorJson.error.message).toMatch(
      /NotImplementedError.*is a stub: write its code in my_tools\/count_words_v2\.py/,
    );
    const impl = join(p.dir, 'my_tools', 'count_words_v2.py');
    writeFileSync(
      impl,
      readFileSync(impl, 'utf8').replace(/raise NotImplementedError\(.*\)/, 'return len(input.split())'),
    );
    const run = await cli(['run', 'count-words.v2', '--input', 'hello big world', '--json'], { cwd: p.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.result).toBe(3);
  });

  it('the node stub runs as export(args) and says it is a stub', async () => {
    const p = project();
    await cli(['new', 'count', '--loader', 'node_module'], { cwd: p.dir });
    const c = parse(readFileSync(join(p.dir, 'tool_registry', 'count.yaml'), 'utf8'));
    const mod = await import(pathToFileURL(join(p.dir, c.loader_config.module)).href);
    await expect(mod[c.loader_config.function]({ input: 'x' })).rejects.toThrow(
      /count is a stub: write its code in my_tools\/count\/count\.mjs/,
    );
    const run = await cli(['run', 'count', '--input', 'x', '--json'], { cwd: p.dir });
    expect(run.code).toBe(4);
  });

  it('the command stub runs its argv with the placeholder filled in', async () => {
    const p = project();
    await cli(['new', 'say', '--loader', 'command'], { cwd: p.dir });
    const run = await cli(['run', 'say', '--input', 'hello there', '--json'], { cwd: p.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.result).toBe('hello there');
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
    const impl = join(p.dir, 'my_tools', 'count', 'count.mjs');
    writeFileSync(impl, '// mine\n');
    rmContract(p.dir, 'count');
    const r = await cli(['new', 'count', '--loader', 'node_module', '--json'], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.errorJson.error.code).toBe('file_exists');
    expect(r.errorJson.error.message).toContain('my_tools/count/count.mjs');
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

  it('points $schema relatively when the schema is inside the project, at the published one otherwise', () => {
    expect(schemaRef(join(REPO, 'tool_registry', 'x.yaml'), REPO)).toBe('../schemas/contract.schema.json');
    expect(schemaRef('/tmp/elsewhere/tool_registry/x.yaml', '/tmp/elsewhere')).toBe(publishedSchemaUrl());
    expect(publishedSchemaUrl()).not.toContain(REPO);
  });
});

function rmContract(dir: string, id: string) {
  rmSync(join(dir, 'tool_registry', `${id}.yaml`));
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

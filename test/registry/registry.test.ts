import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject } from '../../src/config.js';
import { findTool, loadRegistry, scanRegistry } from '../../src/registry/registry.js';
import { ToolboxError } from '../../src/errors.js';
import { REFERENCE_CONTRACT, tempProject } from '../helpers.js';

const contract = (id: string, extra = '') => REFERENCE_CONTRACT.replace('id: query_weather', `id: ${id}`) + extra;
let p: ReturnType<typeof tempProject>;
afterEach(() => p?.cleanup());

describe('registry', () => {
  it('a scan that fails midway leaves no temp file and no cache behind (the next one starts clean)', () => {
    p = tempProject({ 'tool_registry/a.yaml': contract('tool_a'), 'tool_registry/b.yaml': contract('tool_b') });
    const project = resolveProject({ cwd: p.dir });
    let seen = 0;
    expect(() =>
      scanRegistry(project, {}, () => {
        if (++seen === 2) throw new Error('interrupted');
      }),
    ).toThrow('interrupted');
    const cacheDir = join(p.dir, '.toolbox', 'cache');
    expect(readdirSync(cacheDir)).toEqual(['ids-v2']);
    expect(readdirSync(join(cacheDir, 'ids-v2'))).toEqual([]);
    expect([...loadRegistry(project).byId.keys()].sort()).toEqual(['tool_a', 'tool_b']);
  });

  it('loads valid tools, reports broken files and duplicate ids, and re-parses only what changed', () => {
    p = tempProject({
      'tool_registry/a.yaml': contract('tool_a'),
      'tool_registry/nested/b.yml': contract('tool_b'),
      'tool_registry/broken.yaml': 'id: [oops\n',
      'tool_registry/dup.yaml': contract('tool_a'),
      'tool_registry/notes.txt': 'ignored',
    });
    const project = resolveProject({ cwd: p.dir });
    const reg = loadRegistry(project);
    expect([...reg.byId.keys()].sort()).toEqual(['tool_a', 'tool_b']);
    expect(reg.broken.map((b) => b.diagnostics[0]!.rule).sort()).toEqual(['duplicate-id', 'yaml-syntax']);
    expect(reg.parsed).toBe(4);

    expect(loadRegistry(project).parsed).toBe(0);
    const f = p.write('tool_registry/a.yaml', contract('tool_a2'));
    utimesSync(f, new Date(), new Date(Date.now() + 5000));
    const reg3 = loadRegistry(project);
    expect(reg3.parsed).toBe(1);
    expect(reg3.byId.has('tool_a2')).toBe(true);
  });

  it('finds one tool through the id index and suggests close ids for unknown ones', () => {
    p = tempProject({ 'tool_registry/a.yaml': contract('query_weather') });
    const project = resolveProject({ cwd: p.dir });
    expect(findTool(project, 'query_weather').file).toBe(join(project.registryDir, 'a.yaml'));
    // Warm path (index present) gives the same answer.
    expect(findTool(project, 'query_weather').contract.loader).toBe('python_function');
    try {
      findTool(project, 'query_wether');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ToolboxError);
      expect((e as ToolboxError).code).toBe('unknown_tool');
      expect((e as ToolboxError).details?.suggestions).toEqual(['query_weather']);
    }
  });

  it('blames a broken contract only for its own id', () => {
    p = tempProject({
      'tool_registry/ok.yaml': contract('tool_ok'),
      'tool_registry/zz_broken.yaml': contract('real_id').replace('type: string', 'type: strng'),
    });
    const project = resolveProject({ cwd: p.dir });
    const code = (id: string) => {
      try {
        findTool(project, id);
        return 'found';
      } catch (e) {
        return (e as ToolboxError).code;
      }
    };
    expect(code('real_id')).toBe('tool_contract_invalid');
    expect(code('tool')).toBe('unknown_tool');
    expect(code('zz')).toBe('unknown_tool');
  });

  it('notices an edited contract behind a warm index', () => {
    p = tempProject({ 'tool_registry/a.yaml': contract('tool_a') });
    const project = resolveProject({ cwd: p.dir });
    findTool(project, 'tool_a');
    const f = p.write('tool_registry/a.yaml', contract('tool_renamed'));
    utimesSync(f, new Date(), new Date(Date.now() + 5000));
    expect(() => findTool(project, 'tool_a')).toThrow(/Unknown tool/);
    expect(findTool(project, 'tool_renamed').contract.id).toBe('tool_renamed');
  });

  it('uses the nearest project: a tool_registry/ folder wins over a config further up', () => {
    p = tempProject({
      'toolbox.config.yaml': 'registry: tools\n',
      'tools/a.yaml': contract('outer'),
      'sub/tool_registry/b.yaml': contract('inner'),
    });
    expect(resolveProject({ cwd: join(p.dir, 'sub') }).registryDir).toBe(join(p.dir, 'sub', 'tool_registry'));
    expect(resolveProject({ cwd: join(p.dir, 'sub', 'tool_registry') }).registryDir).toBe(
      join(p.dir, 'sub', 'tool_registry'),
    );
    expect(resolveProject({ cwd: join(p.dir, 'tools') }).registryDir).toBe(join(p.dir, 'tools'));
  });

  it('says where the registry is missing and what to do', () => {
    p = tempProject({});
    try {
      resolveProject({ cwd: p.dir });
      expect.unreachable();
    } catch (e) {
      expect((e as ToolboxError).code).toBe('registry_not_found');
      expect((e as ToolboxError).exitCode).toBe(3);
    }
  });

  it('reads the registry folder from toolbox.config.yaml and reports config errors with a location', () => {
    p = tempProject({ 'toolbox.config.yaml': 'registry: tools\n', 'tools/a.yaml': contract('tool_a') });
    expect(resolveProject({ cwd: join(p.dir) }).registryDir).toBe(join(p.dir, 'tools'));
    p.write('toolbox.config.yaml', 'registry: tools\nbogus: 1\n');
    try {
      resolveProject({ cwd: p.dir });
      expect.unreachable();
    } catch (e) {
      expect((e as ToolboxError).code).toBe('config_invalid');
      expect((e as ToolboxError).location).toMatchObject({ line: 2, column: 1 });
    }
  });
});

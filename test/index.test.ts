import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Runtime, resolveProject, selectTools, toDefinitions, validateProject, ToolboxError } from '../src/index.js';
import { REPO } from './helpers.js';

describe('library API (the public entry point)', () => {
  it('selects, validates and runs tools of the shipped registry through the one pipeline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolbox-lib-'));
    try {
      for (const d of ['tool_registry', 'my_tools']) cpSync(join(REPO, d), join(dir, d), { recursive: true });
      const project = resolveProject({ cwd: dir });
      const sel = await selectTools(project, '北京明天会下雨吗', { top: 3 });
      expect(sel.results[0]!.id).toBe('query_weather');
      const defs = toDefinitions(
        sel.results.map((r) => r.entry.contract),
        'anthropic',
      ) as { name: string; input_schema: unknown }[];
      expect(defs[0]).toMatchObject({ name: 'query_weather', input_schema: { type: 'object' } });
      const v = await validateProject(project, { routing: false });
      expect(v.summary.errors).toBe(0);

      const rt = new Runtime(project, { env: { PATH: process.env.PATH } });
      try {
        const r = await rt.invoke({ id: 'calculator', args: { expression: '2^10' } });
        expect(r.result).toMatchObject({ result: 1024 });
        const err = await rt.invoke({ id: 'calculator', args: { expression: 5 } }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ToolboxError);
        expect((err as ToolboxError).exitCode).toBe(2);
      } finally {
        await rt.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

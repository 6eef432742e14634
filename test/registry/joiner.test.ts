// joiner (registry.ts): the path of a listed contract file by concatenation is path.join's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joiner } from '../../src/registry/registry.js';

describe('joiner', () => {
  it("gives path.join's result for every kind of registry folder and listed file", () => {
    const dirs = ['/', '/a/b', '/a/b/', '/a//b', '/a/../b', 'rel/dir', './rel', '.', '', '/tmp/天气 x'];
    const rels = ['x.yaml', 'g0/t1.yaml', '..x/y.yml', 'a b/c.yaml', '天气/查询.yaml', '.hidden/x.yaml'];
    for (const dir of dirs) {
      const inDir = joiner(dir);
      for (const rel of rels) expect(inDir(rel), `${dir} + ${rel}`).toBe(join(dir, rel));
    }
  });
});

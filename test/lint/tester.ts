// A table-driven tester for lint rules, ESLint RuleTester-style: `valid` contracts give no
// diagnostic from the rule, each `invalid` case gives exactly the listed diagnostics.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseContract } from '../../src/contract/parse.js';
import { lintSettings, runLint } from '../../src/lint/engine.js';
import { ruleMap, type RuleId } from '../../src/lint/rules/index.js';
import type { LintFile } from '../../src/lint/types.js';

/** A contract: YAML text, or fields merged over a good base contract. */
export type ContractInput = string | Record<string, unknown>;
export interface ExpectedError {
  path?: string;
  line?: number;
  column?: number;
  message?: RegExp;
}
export interface RuleCases {
  valid: (ContractInput | ContractInput[])[];
  invalid: {
    contract: ContractInput | ContractInput[];
    errors: ExpectedError[];
    options?: Record<string, number | string | boolean>;
  }[];
}

export const BASE = {
  id: 'convert_currency',
  name: 'Convert currency',
  description:
    'Convert an amount of money from one currency to another at the latest exchange rate. Use when the user asks how much a sum is worth in another currency.',
  schema: {
    type: 'object',
    properties: {
      amount: { type: 'number', description: 'The amount to convert, e.g. 12.5.' },
      from: { type: 'string', description: 'ISO 4217 code of the source currency, e.g. USD.' },
      to: { type: 'string', description: 'ISO 4217 code of the target currency, e.g. EUR.' },
    },
    required: ['amount', 'from', 'to'],
  },
  loader: 'python_function',
  loader_config: { module: 'my_tools.fx', function: 'convert' },
};

export function toYaml(c: ContractInput, i = 0): string {
  if (typeof c === 'string') return c;
  return stringify({ ...BASE, id: `${BASE.id}_${i}`, ...c }, { lineWidth: 0 });
}

/** Run one rule (with defaults, or `options` merged) over contracts; returns its diagnostics. */
export async function lintWith(
  id: RuleId,
  contracts: ContractInput[],
  options?: Record<string, number | string | boolean>,
) {
  const rule = await ruleMap[id]();
  const files: LintFile[] = contracts.map((c, i) => {
    const file = `/reg/t${i}.yaml`;
    const p = parseContract(file, new TextEncoder().encode(toYaml(c, i)));
    if (!p.data || typeof p.data !== 'object')
      throw new Error(`fixture ${i} did not parse: ${JSON.stringify(p.diagnostics)}`);
    return { file, data: p.data as Record<string, unknown>, locate: p.locate };
  });
  const settings = lintSettings([rule], options ? { lint: { options: { [id]: options } } } : {});
  return runLint([rule], files, settings, (f) => f);
}

export function ruleTester(id: RuleId, cases: RuleCases): void {
  describe(`lint rule ${id}`, () => {
    it('has metadata', async () => {
      const r = await ruleMap[id]();
      expect(r.meta.id).toBe(id);
      expect(['error', 'warning', 'info']).toContain(r.meta.severity);
      expect(r.meta.description.length).toBeGreaterThan(10);
      expect(r.meta.docs.length).toBeGreaterThan(10);
    });
    cases.valid.forEach((c, i) => {
      it(`valid #${i}`, async () => {
        const ds = await lintWith(id, Array.isArray(c) ? c : [c]);
        expect(ds).toEqual([]);
      });
    });
    cases.invalid.forEach((c, i) => {
      it(`invalid #${i}`, async () => {
        const ds = await lintWith(id, Array.isArray(c.contract) ? c.contract : [c.contract], c.options);
        expect(ds.length, JSON.stringify(ds, null, 1)).toBe(c.errors.length);
        c.errors.forEach((e, k) => {
          const d = ds[k]!;
          expect(d.rule).toBe(id);
          expect(d.line).toBeGreaterThan(0);
          expect(d.column).toBeGreaterThan(0);
          if (e.path !== undefined) expect(d.path).toBe(e.path);
          if (e.line !== undefined) expect(d.line).toBe(e.line);
          if (e.column !== undefined) expect(d.column).toBe(e.column);
          if (e.message) expect(d.message).toMatch(e.message);
          expect(d.hint).toBeTruthy();
        });
      });
    });
  });
}

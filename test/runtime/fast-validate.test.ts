import { describe, expect, it } from 'vitest';
import { fastValidate } from '../../src/runtime/fast-validate.js';
import { createRequire } from 'node:module';
import { ajvFor } from '../../src/contract/ajv.js';

// A deterministic PRNG (mulberry32) so the differential check is the same on every run.
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

function genSchema(r: () => number, depth: number): Record<string, unknown> | boolean {
  if (depth > 2 && r() < 0.1) return r() < 0.5;
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const t = pick(TYPES);
  const t2 = pick(TYPES);
  const s: Record<string, unknown> = r() < 0.8 ? { type: r() < 0.2 && t2 !== t ? [t, t2] : t } : {};
  if (r() < 0.15) s.enum = [1, 'a', true, null, 2.5].filter((_, i) => i === 0 || r() < 0.6);
  if (t === 'string') {
    if (r() < 0.3) s.minLength = Math.floor(r() * 3);
    if (r() < 0.3) s.maxLength = Math.floor(r() * 4);
    if (r() < 0.2) s.pattern = pick(['^a', '\\d', '^.{2}$', '北']);
  }
  if (t === 'number' || t === 'integer') {
    if (r() < 0.3) s.minimum = Math.floor(r() * 4) - 2;
    if (r() < 0.3) s.exclusiveMaximum = Math.floor(r() * 4);
  }
  if (t === 'array' && depth < 3) {
    if (r() < 0.7) s.items = genSchema(r, depth + 1);
    if (r() < 0.3) s.minItems = 1;
    if (r() < 0.3) s.maxItems = 2;
  }
  if (t === 'object' && depth < 3) {
    const props: Record<string, unknown> = {};
    for (const k of ['a', 'b', 'c']) if (r() < 0.6) props[k] = genSchema(r, depth + 1);
    s.properties = props;
    if (r() < 0.5) s.required = Object.keys(props).filter(() => r() < 0.5);
    if (r() < 0.4) s.additionalProperties = r() < 0.5 ? false : genSchema(r, depth + 1);
  }
  return s;
}

function genData(r: () => number, depth: number): unknown {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const kind = pick(['s', 'n', 'i', 'b', 'null', 'o', 'a']);
  switch (kind) {
    case 's':
      return pick(['', 'a', 'ab', 'abc', '北京', 'a1', '😀😀', '12']);
    case 'n':
      return pick([0.5, -1.5, 2.25]);
    case 'i':
      return pick([-2, -1, 0, 1, 2, 3, 4]);
    case 'b':
      return r() < 0.5;
    case 'null':
      return null;
    case 'a':
      return depth > 2 ? [] : Array.from({ length: Math.floor(r() * 4) }, () => genData(r, depth + 1));
    default: {
      if (depth > 2) return {};
      const o: Record<string, unknown> = {};
      for (const k of ['a', 'b', 'c', 'd']) if (r() < 0.5) o[k] = genData(r, depth + 1);
      return o;
    }
  }
}

describe('fastValidate', () => {
  it('agrees with ajv on 20,000 random schema/data pairs from the keywords it implements', () => {
    const r = rng(42);
    let decided = 0;
    for (let i = 0; i < 2000; i++) {
      const schema = genSchema(r, 0);
      if (typeof schema === 'boolean') continue;
      const ajv = ajvFor(schema).compile(schema);
      for (let j = 0; j < 10; j++) {
        const data = genData(r, 0);
        const fast = fastValidate(schema, data);
        expect(fast, `${JSON.stringify(schema)} / ${JSON.stringify(data)}`).toBe(ajv(data));
        decided++;
      }
    }
    expect(decided).toBeGreaterThan(15_000);
  });

  it('a required parameter named like an Object.prototype member is missing unless the object has it', () => {
    // ajv with ownProperties checks what fastValidate checks: the object's own properties.
    const Ajv = createRequire(import.meta.url)('ajv').default;
    const own = new Ajv({ allErrors: true, strict: false, ownProperties: true });
    for (const name of ['toString', 'valueOf', 'constructor', 'hasOwnProperty', '__proto__']) {
      const schema = { type: 'object', required: [name] };
      expect(fastValidate(schema, {}), name).toBe(false);
      expect(own.validate(schema, {}), name).toBe(false);
      const given = JSON.parse(`{"${name}": "x"}`); // an own property, even for __proto__
      expect(fastValidate(schema, given), name).toBe(true);
      expect(own.validate(schema, given), name).toBe(true);
    }
    // With the property declared, the project's own ajv rejects {} too (it reads the inherited value).
    const typed = { type: 'object', required: ['toString'], properties: { toString: { type: 'string' } } };
    expect(fastValidate(typed, {})).toBe(false);
    expect(ajvFor(typed).compile(typed)({})).toBe(false);
    expect(fastValidate(typed, { toString: 'x' })).toBe(true);
    expect(ajvFor(typed).compile(typed)({ toString: 'x' })).toBe(true);
  });

  it('a required property that is present but undefined counts as missing, as in ajv', () => {
    const schema = { type: 'object', required: ['a'] };
    expect(fastValidate(schema, { a: undefined })).toBe(false);
    expect(ajvFor(schema).compile(schema)({ a: undefined })).toBe(false);
  });

  it('defers to ajv for keywords it does not implement', () => {
    for (const schema of [
      { type: 'string', format: 'email' },
      { anyOf: [{ type: 'string' }] },
      { $ref: '#/$defs/x', $defs: { x: {} } },
      { type: 'object', patternProperties: { '^x': {} } },
      { enum: [{ a: 1 }] },
      { type: 'array', items: [{ type: 'string' }] },
    ]) {
      expect(fastValidate(schema, 'x'), JSON.stringify(schema)).toBeUndefined();
    }
  });
});

// The searchable fields of a contract (src/select/fields.ts): which text of a contract lands in which
// field, pinned with the expected strings written out.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { FIELDS, fieldTexts, toolText } from '../../src/select/fields.js';

function tool(extra: Partial<ToolContract> & Record<string, unknown>): ToolContract {
  return { id: 'get_weather', description: 'Weather now', loader: 'command', ...extra } as ToolContract;
}

/** The parameter and enum fields of a contract with `schema`, as lists (fieldTexts joins them with ' \n '). */
function walk(schema: unknown): { params: string[]; enums: string[] } {
  const [, , params, enums] = fieldTexts(tool({ schema: schema as ToolContract['schema'] }));
  const split = (s: string) => (s ? s.split(' \n ') : []);
  return { params: split(params!), enums: split(enums!) };
}

/** A chain of `n` nested properties p1 → p2 → …, the property at level k described 'dk'. */
function chain(n: number, via: 'properties' | 'items' = 'properties'): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string', description: `d${n}` };
  for (let k = n - 1; k >= 1; k--)
    node =
      via === 'properties'
        ? { description: `d${k}`, properties: { [`p${k + 1}`]: node } }
        : { description: `d${k}`, items: node };
  return via === 'properties' ? { type: 'object', properties: { p1: node } } : { type: 'array', items: node };
}

describe('fieldTexts', () => {
  it('has one text per written field, in FIELDS order', () => {
    expect(FIELDS).toEqual(['name', 'description', 'parameters', 'enums', 'tags', 'examples', 'translated']);
    const c = tool({
      name: 'Forecast',
      tags: ['meteo', 'outdoor'],
      provider: 'acme',
      examples: ['rain in Paris?', 'weather tomorrow'],
      schema: { type: 'object', properties: { city: { type: 'string', description: 'City name', enum: ['Paris'] } } },
    });
    expect(fieldTexts(c)).toEqual([
      'get_weather Forecast',
      'Weather now',
      'city \n City name',
      'Paris',
      'meteo \n outdoor \n acme',
      'rain in Paris? \n weather tomorrow',
    ]);
  });

  it('counts a name that only repeats the id once, and a missing name is the id', () => {
    expect(fieldTexts(tool({ name: 'Get Weather' }))[0]).toBe('get_weather');
    expect(fieldTexts(tool({ name: 'getWeather' }))[0]).toBe('get_weather');
    expect(fieldTexts(tool({ name: 'Get the weather' }))[0]).toBe('get_weather'); // "the" is a stop word
    expect(fieldTexts(tool({ name: 'Weather' }))[0]).toBe('get_weather Weather');
    expect(fieldTexts(tool({ name: '' }))[0]).toBe('get_weather');
    expect(fieldTexts(tool({}))[0]).toBe('get_weather');
  });

  it('gives empty texts for what a contract does not have, and ignores tags/examples/provider of the wrong type', () => {
    const c = { id: 'x', loader: 'command' } as unknown as ToolContract;
    expect(fieldTexts(c)).toEqual(['x', '', '', '', '', '']);
    const odd = tool({ tags: 'meteo' as unknown as string[], examples: 'rain' as unknown as string[], provider: 7 });
    expect(fieldTexts(odd).slice(2)).toEqual(['', '', '', '']);
    expect(fieldTexts(tool({ provider: 'acme' }))[4]).toBe('acme');
    expect(fieldTexts(tool({ tags: ['a'] }))[4]).toBe('a');
  });

  it('walks every kind of sub-schema: property names and descriptions/titles to parameters, values to enums', () => {
    const schema = {
      type: 'object',
      description: 'top description (repeats the tool description)',
      title: 'top title',
      properties: {
        cityName: {
          type: 'string',
          description: 'the city',
          enum: ['Paris', 3, true, null, { x: 1 }],
          examples: ['Lyon', 4.5, false],
        },
        unit: { const: 'metric', title: 'Unit title' },
        level: { const: 2, description: 'a number const is no text' },
      },
      patternProperties: { '^x-': { description: 'extension' } },
      $defs: { Inner: { description: 'inner def', enum: ['a'] } },
      definitions: { Old: { title: 'old def' } },
      items: { description: 'item desc' },
      additionalProperties: { description: 'extra' },
      anyOf: [{ description: 'any1' }, { title: 'any2' }],
      oneOf: [{ description: 'one1' }],
      allOf: [{ description: 'all1' }],
      not: { description: 'not1' },
      if: { description: 'if1' },
      then: { description: 'then1' },
      else: { description: 'else1' },
      prefixItems: [{ description: 'prefix1' }],
    };
    expect(walk(schema)).toEqual({
      params: [
        'cityName',
        'the city',
        'unit',
        'Unit title',
        'level',
        'a number const is no text',
        'extension',
        'inner def',
        'old def',
        'item desc',
        'extra',
        'any1',
        'any2',
        'one1',
        'all1',
        'not1',
        'if1',
        'then1',
        'else1',
        'prefix1',
      ],
      enums: ['Paris', '3', 'Lyon', '4.5', 'metric', 'a'],
    });
  });

  it('keeps a nested description and title, skips only the top-level ones', () => {
    expect(walk({ description: 'top', title: 'T', properties: { q: { description: 'inner', title: 'Q' } } })).toEqual({
      params: ['q', 'inner', 'Q'],
      enums: [],
    });
  });

  it('takes a property named like a keyword as a name, and ignores keyword values of the wrong type', () => {
    const schema = {
      type: 'object',
      properties: {
        description: { type: 'string', description: 'text of the note' },
        enum: { type: 'string' },
      },
      // Wrong types: not walked, no crash.
      patternProperties: ['^x-'],
      $defs: 'none',
      definitions: null,
      items: true,
      anyOf: 'a',
      not: 5,
      enum: 'Paris',
      examples: { a: 'b' },
      const: 3,
    };
    expect(walk(schema)).toEqual({ params: ['description', 'text of the note', 'enum'], enums: [] });
    expect(walk({ properties: { a: { description: 7, title: ['x'] } } })).toEqual({ params: ['a'], enums: [] });
    // null and other non-schemas inside a list of schemas are skipped
    expect(walk({ anyOf: [null, true, 'x', 3, { description: 'kept' }] })).toEqual({ params: ['kept'], enums: [] });
    expect(walk('a string schema')).toEqual({ params: [], enums: [] });
    expect(walk(undefined)).toEqual({ params: [], enums: [] });
  });

  it('walks a tuple of items (an array of schemas)', () => {
    expect(walk({ type: 'array', items: [{ description: 'first' }, { enum: ['second'] }] })).toEqual({
      params: ['first'],
      enums: ['second'],
    });
  });

  it('stops 12 levels deep, and a deeper or very deep schema costs nothing more', () => {
    // p1's schema is at depth 1 … dk at depth k: d1…d12 are read, d13 is not; the name of a property
    // is read at its parent (p13 at depth 12).
    const names = (n: number) => Array.from({ length: n }, (_, i) => [`p${i + 1}`, `d${i + 1}`]).flat();
    expect(walk(chain(12)).params).toEqual(names(12));
    expect(walk(chain(13)).params).toEqual([...names(12), 'p13']);
    expect(walk(chain(14)).params).toEqual([...names(12), 'p13']);
    expect(walk(chain(5000)).params).toEqual([...names(12), 'p13']);
    // items count their depth the same way
    expect(walk(chain(14, 'items')).params).toEqual(Array.from({ length: 12 }, (_, i) => `d${i + 1}`));
    // an array of schemas is one level, and each element one more: p1's schema is at depth 3
    expect(walk({ anyOf: [chain(12)] }).params).toEqual([...names(10), 'p11']);
  });
});

describe('toolText (what dense retrieval embeds)', () => {
  it('is the name with the id, description, parameters, tags and examples, without enum values or empty fields', () => {
    const c = tool({
      name: 'Forecast',
      tags: ['meteo'],
      provider: 'acme',
      examples: ['rain in Paris?'],
      schema: { type: 'object', properties: { city: { type: 'string', description: 'City name', enum: ['Paris'] } } },
    });
    expect(toolText(c)).toBe('Forecast (get_weather)\nWeather now\ncity \n City name\nmeteo \n acme\nrain in Paris?');
    expect(toolText(tool({ name: 'get_weather' }))).toBe('get_weather\nWeather now');
    expect(toolText(tool({}))).toBe('get_weather\nWeather now');
    expect(toolText(tool({ description: '' }))).toBe('get_weather');
  });
});

// What the description rules build on: the stemmer, term extraction, the strings a model reads
// (with their paths), the parameter walk and the secret/instruction matchers. Expected values are
// written out.
import { describe, expect, it } from 'vitest';
import { isGeneric, isStopword, stem, termWords, terms, weightedLength } from '../../src/lint/text.js';
import { allStrings, modelTexts } from '../../src/lint/model-texts.js';
import { firstOf } from '../../src/lint/poison/rx.js';
import { collectParams, describedBy, hasType } from '../../src/lint/params.js';

describe('stem', () => {
  it.each([
    ['queries', 'query'],
    ['ties', 'tie'],
    ['boxes', 'box'],
    ['fixes', 'fix'],
    ['matches', 'match'],
    ['wishes', 'wish'],
    ['classes', 'class'],
    ['buses', 'bus'],
    ['files', 'fil'],
    ['class', 'class'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['handling', 'handl'],
    ['things', 'thing'],
    ['bring', 'bring'],
    ['handled', 'handl'],
    ['used', 'used'],
    ['rate', 'rat'],
    ['cat', 'cat'],
    ['has', 'has'],
    ['axes', 'ax'],
    ['ices', 'ice'],
    ['天气预报', '天气预报'],
  ])('%s → %s', (w, s) => {
    expect(stem(w)).toBe(s);
  });
});

describe('terms', () => {
  it('drops stop words and one-letter Latin words, keeps the word each term came from', () => {
    expect(termWords("The user's Files, a b 42; it's x-rays!")).toEqual([
      { term: 'fil', word: 'files' },
      { term: '42', word: '42' },
      { term: 'ray', word: 'rays' },
    ]);
  });
  it('splits sentences on Chinese and English punctuation and mixed Latin/CJK runs', () => {
    expect(terms('查询天气。Convert PDF文件')).toEqual(['查询', '天气', 'convert', 'pdf', '文件']);
    expect(terms('a\n\n；!?')).toEqual([]);
  });
  it('stop words and generic words, English (stemmed) and Chinese', () => {
    expect([isStopword('the'), isStopword('的'), isStopword('weather')]).toEqual([true, true, false]);
    expect([isGeneric('fil'), isGeneric('处理'), isGeneric('weather')]).toEqual([true, true, false]);
  });
  it('weighted length trims and counts CJK as three', () => {
    expect(weightedLength('  ab  ')).toBe(2);
    expect(weightedLength(' 天a ')).toBe(4);
  });
});

describe('modelTexts: every string a model reads, with its path', () => {
  it('names, titles, descriptions and parameter values, prose and value kinds', () => {
    const texts = modelTexts({
      name: 'N',
      title: 'T',
      description: 'D',
      annotations: { title: 'AT' },
      schema: {
        description: 'SD',
        properties: {
          unit: { title: 'UT', description: 'UD', enum: ['c', 1, 'f'], examples: ['ex'], default: 'c', const: 'k' },
          n: { type: 'integer', default: 3 },
        },
      },
    });
    expect(texts.map((t) => [t.path.join('.'), t.what, t.text, t.kind])).toEqual([
      ['name', 'name', 'N', 'prose'],
      ['title', 'title', 'T', 'prose'],
      ['description', 'description', 'D', 'prose'],
      ['annotations.title', 'annotations.title', 'AT', 'prose'],
      ['schema.description', 'schema description', 'SD', 'prose'],
      ['schema.properties.unit.description', "description of parameter 'unit'", 'UD', 'prose'],
      ['schema.properties.unit.title', "title of parameter 'unit'", 'UT', 'prose'],
      ['schema.properties.unit.enum.0', "enum value of 'unit'", 'c', 'value'],
      ['schema.properties.unit.enum.2', "enum value of 'unit'", 'f', 'value'],
      ['schema.properties.unit.examples.0', "example value of 'unit'", 'ex', 'value'],
      ['schema.properties.unit.default', "default of 'unit'", 'c', 'value'],
      ['schema.properties.unit.const', "const of 'unit'", 'k', 'value'],
    ]);
  });
  it('ignores what is not a string, and annotations/schema that are not mappings', () => {
    expect(modelTexts({ name: 3, annotations: ['title'], schema: 'x', description: null })).toEqual([]);
    expect(modelTexts({ annotations: { title: 1 }, schema: { description: 2 } })).toEqual([]);
  });
});

describe('allStrings', () => {
  it('every key and string value with its path, 40 levels deep at most', () => {
    expect(allStrings({ a: ['x', { b: 'y' }], n: 1 })).toEqual([
      { path: ['a'], text: 'a' },
      { path: ['a', 0], text: 'x' },
      { path: ['a', 1, 'b'], text: 'b' },
      { path: ['a', 1, 'b'], text: 'y' },
      { path: ['n'], text: 'n' },
    ]);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 41; i++) deep = [deep];
    expect(allStrings(deep)).toEqual([]);
    expect(allStrings((deep as unknown[])[0])).toHaveLength(1);
    let obj: unknown = 'bottom';
    for (let i = 0; i < 41; i++) obj = { k: obj };
    expect(allStrings(obj).map((s) => s.text)).toEqual(Array<string>(41).fill('k'));
  });
});

describe('firstOf', () => {
  it('the first pattern that matches, trimmed, white space collapsed', () => {
    expect(firstOf('say  hello  there', [/zzz/, /\shello\s/, /there/])).toBe('hello');
    expect(firstOf('say  hello  there', [/hello\s+there/])).toBe('hello there');
    expect(firstOf('nothing', [/zzz/])).toBeUndefined();
  });
});

describe('collectParams, hasType, describedBy', () => {
  it('walks properties, array items and variants, naming nested ones by dots and []', () => {
    const ps = collectParams({
      schema: {
        properties: {
          a: { type: 'object', properties: { b: { type: 'string' } } },
          list: { type: 'array', items: { properties: { name: {} } } },
          bad: 'not a schema',
        },
        anyOf: [{ properties: { v: {} } }, 'x'],
        oneOf: [{ properties: { w: {} } }],
        allOf: [{ properties: { z: {} } }],
      },
    });
    expect(ps.map((p) => [p.name, p.path.join('.')])).toEqual([
      ['a', 'schema.properties.a'],
      ['a.b', 'schema.properties.a.properties.b'],
      ['list', 'schema.properties.list'],
      ['list[].name', 'schema.properties.list.items.properties.name'],
      ['v', 'schema.anyOf.0.properties.v'],
      ['w', 'schema.oneOf.0.properties.w'],
      ['z', 'schema.allOf.0.properties.z'],
    ]);
    expect(collectParams({ schema: [] })).toEqual([]);
  });
  it('stops 13 levels deep through items and variants too', () => {
    let items: Record<string, unknown> = { properties: { leaf: {} } };
    for (let i = 0; i < 13; i++) items = { items: items };
    expect(collectParams({ schema: items })).toEqual([]);
    expect(collectParams({ schema: { items: { items: { properties: { leaf: {} } } } } })).toHaveLength(1);
    let anyOf: Record<string, unknown> = { properties: { leaf: {} } };
    for (let i = 0; i < 13; i++) anyOf = { anyOf: [anyOf] };
    expect(collectParams({ schema: anyOf })).toEqual([]);
  });
  it('stops 13 levels deep', () => {
    let s: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) s = { properties: { p: s } };
    expect(collectParams({ schema: s })).toHaveLength(13);
  });
  it.each([
    [{ type: 'string' }, true],
    [{ enum: [1] }, true],
    [{ const: null }, true],
    [{ $ref: '#/$defs/x' }, true],
    [{ $ref: 3 }, false],
    [{ anyOf: [{ type: 'string' }, { enum: [1] }] }, true],
    [{ oneOf: [{ type: 'string' }] }, true],
    [{ anyOf: [{ type: 'string' }, {}] }, false],
    [{ anyOf: [{ type: 'string' }, 'x'] }, false],
    [{ anyOf: [] }, false],
    [{ allOf: [{}, { type: 'string' }] }, true],
    [{ allOf: [{}, 'x'] }, false],
    [{ description: 'x' }, false],
  ])('hasType(%j) = %s', (s, want) => {
    expect(hasType(s)).toBe(want);
  });
  it('describedBy: the trimmed description, else the title, else nothing', () => {
    expect(describedBy({ description: ' d ', title: 't' })).toBe('d');
    expect(describedBy({ description: '  ', title: ' t ' })).toBe('t');
    expect(describedBy({ description: 3, title: '' })).toBeUndefined();
  });
});

describe('words the stemmer and term splitter must leave whole', () => {
  it('a suffix rule applies only at the end of a word', () => {
    expect(stem('chestnut')).toBe('chestnut');
    expect(termWords("O'Sullivan")).toEqual([{ term: "o'sullivan", word: "o'sullivan" }]);
    expect(termWords("o'clock")).toEqual([{ term: "o'clock", word: "o'clock" }]);
  });
});

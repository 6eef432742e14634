// parseContract: every structural problem as a located diagnostic, written out as
// "line:col rule path | message" (what is wrong, where, and which hint goes with it).
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../src/contract/parse.js';

const B = `id: fx
name: FX
description: Convert money between currencies. Use when asked.
loader: command
loader_config: { argv: [echo] }
`;
const S = 'schema: { type: object }\n';
const parse = (v: string | Uint8Array) =>
  parseContract('/r/t.yaml', typeof v === 'string' ? new TextEncoder().encode(v) : v);
const found = (v: string | Uint8Array) =>
  parse(v).diagnostics.map((d) => `${d.line}:${d.column} ${d.rule} ${d.path ?? '-'} | ${d.message}`);
const TYPES = '"array", "boolean", "integer", "null", "number", "object", "string"';

describe('parseContract diagnostics', () => {
  it.each<[string, string | Uint8Array, string[]]>([
    ['only comments', '# just a comment\n  # another\n', ['1:1 empty-file - | contract file is empty']],
    ['one comment without a newline', '# only', ['1:1 empty-file - | contract file is empty']],
    ['a comment and blank lines', '# c\n  \n\n', ['1:1 empty-file - | contract file is empty']],
    [
      'one byte over 1 MiB',
      new TextEncoder().encode(`#${'x'.repeat(1024 * 1024)}`),
      ['1:1 file-too-large - | contract file is 1048577 bytes; the limit is 1048576 (1 MiB)'],
    ],
    ['a schema that is not a mapping', `${B}schema: x\n`, ["6:1 contract-schema schema | 'schema' must be object"]],
    [
      'a remote $ref (the rest of that schema is not checked)',
      `${B}schema:\n  type: object\n  properties:\n    a: { $ref: "https://x.example/s.json", type: strin }\n`,
      [
        "9:10 remote-ref schema.properties.a.$ref | $ref 'https://x.example/s.json' points outside the contract; toolbox never fetches remote schemas",
      ],
    ],
    [
      'a dangling $ref in a list of variants',
      `${B}schema:\n  type: object\n  properties:\n    a: { anyOf: [{ $ref: "#/$defs/nope" }] }\n`,
      [
        "9:20 invalid-json-schema schema.properties.a.anyOf.0.$ref | JSON Schema does not compile: can't resolve reference #/$defs/nope",
      ],
    ],
    [
      'a $ref through a string',
      `${B}schema:\n  type: object\n  $defs: { a: { type: string } }\n  properties:\n    a: { $ref: "#/$defs/a/type/0" }\n`,
      [
        "10:10 invalid-json-schema schema.properties.a.$ref | JSON Schema does not compile: can't resolve reference #/$defs/a/type/0",
      ],
    ],
    [
      'a $ref to a missing last segment, next to one that exists',
      `${B}schema:\n  type: object\n  $defs: { a: { type: string } }\n  properties:\n    a: { $ref: "#/$defs/b" }\n`,
      [
        "10:10 invalid-json-schema schema.properties.a.$ref | JSON Schema does not compile: can't resolve reference #/$defs/b",
      ],
    ],
    [
      'an empty segment inside a $ref is a key of its own (only a trailing one is dropped)',
      `${B}schema:\n  type: object\n  $defs: { x: { type: string } }\n  properties:\n    a: { $ref: "#/$defs//x" }\n`,
      [
        "10:10 invalid-json-schema schema.properties.a.$ref | JSON Schema does not compile: can't resolve reference #/$defs//x",
      ],
    ],
    [
      'either of two required keys: both named, not the oneOf around them',
      'id: fx\nname: FX\ndescription: Convert money. Use when asked.\nloader: mcp\nloader_config: { tool: x }\nschema: { type: object }\n',
      [
        "5:1 contract-schema loader_config | 'loader_config' is missing required property 'command'",
        "5:1 contract-schema loader_config | 'loader_config' is missing required property 'url'",
      ],
    ],
    [
      'a $ref that is not a string',
      `${B}schema:\n  type: object\n  properties:\n    a: { $ref: 5 }\n`,
      [
        "9:10 invalid-json-schema schema.properties.a.$ref | invalid JSON Schema: 'schema.properties.a.$ref' must be string",
      ],
    ],
    [
      "a loader's own required key: only that error, not the if/then around it",
      'id: fx\nname: FX\ndescription: Convert money. Use when asked.\nloader: http\nloader_config: { method: GET }\nschema: { type: object }\n',
      ["5:1 contract-schema loader_config | 'loader_config' is missing required property 'url'"],
    ],
    [
      "another keyword: ajv's message after the path",
      'id: fx\nname: ""\ndescription: Convert money. Use when asked.\nloader: command\nloader_config: { argv: [echo] }\nschema: { type: object }\n',
      ["2:1 contract-schema name | 'name' must NOT have fewer than 1 characters"],
    ],
    [
      'an unsafe key in a list',
      `${B}schema:\n  type: object\n  anyOf:\n    - constructor: 1\n`,
      ["9:7 unsafe-key schema.anyOf.0.constructor | key 'constructor' is not allowed (prototype pollution guard)"],
    ],
    ['a list', '- a\n- b\n', ['1:1 contract-schema - | a contract must be a YAML mapping, found a list']],
    ['a scalar', 'hello\n', ['1:1 contract-schema - | a contract must be a YAML mapping, found string']],
    [
      'a NUL byte',
      new Uint8Array([0x69, 0x64, 0x00]),
      ['1:1 binary-file - | file contains a NUL byte at offset 2: not a text YAML file'],
    ],
    [
      'a bad UTF-8 byte',
      new Uint8Array([...new TextEncoder().encode('id: fx\nname: é'), 0xff, 0x0a]),
      ['2:8 encoding - | invalid UTF-8 byte 0xff: contract files must be UTF-8'],
    ],
    [
      'YAML errors',
      `${B}name: [x\n`,
      [
        '6:1 yaml-syntax - | Map keys must be unique',
        '7:1 yaml-syntax - | Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
    ],
    [
      'an unsafe key',
      `${B}schema:\n  type: object\n  properties:\n    __proto__: { type: string }\n`,
      ["9:5 unsafe-key schema.properties.__proto__ | key '__proto__' is not allowed (prototype pollution guard)"],
    ],
    [
      'missing properties',
      'id: fx\nname: FX\ndescription: d\nloader: command\n',
      [
        "1:1 contract-schema  | contract is missing required property 'schema'",
        "1:1 contract-schema  | contract is missing required property 'loader_config'",
      ],
    ],
    ['an unknown property', `${B}${S}colour: red\n`, ["1:1 contract-schema  | contract has unknown property 'colour'"]],
    [
      'a value not in the enum',
      B.replace('loader: command', 'loader: shell') + S,
      [
        '4:1 contract-schema loader | \'loader\' must be one of: "python_function", "node_module", "command", "http", "mcp"',
      ],
    ],
    ['a wrong type', `${B}${S}examples: 3\n`, ["7:1 contract-schema examples | 'examples' must be array"]],
    [
      'an id off the pattern',
      B.replace('id: fx', 'id: "f x"') + S,
      ["1:1 contract-schema id | 'id' does not match the pattern ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"],
    ],
    [
      'a remote $ref',
      `${B}schema:\n  type: object\n  properties:\n    a: { $ref: "https://x.example/s.json" }\n`,
      [
        "9:10 remote-ref schema.properties.a.$ref | $ref 'https://x.example/s.json' points outside the contract; toolbox never fetches remote schemas",
      ],
    ],
    [
      'an invalid JSON Schema (in output_schema too)',
      `${B}${S}output_schema:\n  type: object\n  properties:\n    a: { type: strin }\n`,
      [
        `10:10 invalid-json-schema output_schema.properties.a.type | invalid JSON Schema: 'output_schema.properties.a.type' must be one of: ${TYPES}`,
        "10:10 invalid-json-schema output_schema.properties.a.type | invalid JSON Schema: 'output_schema.properties.a.type' must be array",
      ],
    ],
    [
      'a dangling local $ref',
      `${B}schema:\n  type: object\n  properties:\n    a: { $ref: "#/$defs/nope" }\n`,
      [
        "9:10 invalid-json-schema schema.properties.a.$ref | JSON Schema does not compile: can't resolve reference #/$defs/nope",
      ],
    ],
    [
      'a pattern that does not parse',
      `${B}schema:\n  type: object\n  properties:\n    a: { type: string, pattern: "(" }\n`,
      [
        '9:24 invalid-json-schema schema.properties.a.pattern | JSON Schema does not compile: pattern "(" is not a valid regular expression: Invalid regular expression: /(/u: Unterminated group',
      ],
    ],
    [
      'a pattern key that needs backtracking',
      `${B}schema:\n  type: object\n  patternProperties:\n    "(?=x)y": { type: string }\n`,
      [
        '9:5 invalid-json-schema schema.patternProperties.(?=x)y | JSON Schema does not compile: pattern "(?=x)y" needs a backtracking engine (invalid or unsupported Perl syntax: `(?=`); arguments are matched in linear time, so lookaround and backreferences are not supported',
      ],
    ],
  ])('%s', (_name, text, want) => {
    const p = parse(text);
    expect(found(text)).toEqual(want);
    expect(p.contract).toBeUndefined();
  });

  // A slip in indentation, as people make them: one diagnostic that says "indentation", at the
  // slipped line, with a code frame (the parser alone says "Nested mappings are not allowed in compact
  // mappings" and "Implicit keys need to be on a single line", on the line above).
  it.each<[string, string, string, RegExp]>([
    ['one space too deep', `${B}schema:\n  type: object\n   properties: {}\n`, '8:4', /deeper than 'type' on line 7/],
    ['one space too shallow', `${B}schema:\n  type: object\n properties: {}\n`, '8:2', /no mapping around it starts/],
    ['between two levels', `${B}schema:\n    type: object\n  properties: {}\n`, '8:3', /'type' on line 7 is at 4/],
    [
      'a key under a list item',
      `${B}schema:\n  type: object\n  required:\n  - a\n  - b\n    c: 1\n`,
      '11:5',
      /deeper than '- b' on line 10/,
    ],
    [
      'after a flow mapping over two lines',
      `${B}schema:\n  type: object\n  properties:\n    a: { type: string,\n      description: x }\n   required: [a]\n`,
      '11:4',
      /'a' on line 9 is at 4 spaces, 'properties' on line 8 is at 2 spaces/,
    ],
  ])('an indentation slip, %s: one message with a code frame', (_name, text, at, says) => {
    const ds = parse(text).diagnostics;
    expect(ds).toHaveLength(1);
    const d = ds[0]!;
    expect(`${d.line}:${d.column}`).toBe(at);
    expect(d.rule).toBe('yaml-syntax');
    expect(d.message).toMatch(/^bad indentation: /);
    expect(d.message).toMatch(says);
    expect(d.hint).toMatch(/Indent '/);
    const caret = d.frame!.split('\n').findIndex((l) => l.startsWith('>'));
    expect(d.frame!.split('\n')[caret]).toContain(text.split('\n')[d.line - 1]!);
    expect(d.frame!.split('\n')[caret + 1]!.indexOf('^')).toBe(
      d.frame!.split('\n')[caret]!.indexOf('|') + 1 + d.column,
    );
  });

  it('no indentation message where the indentation is fine (a quoted line break, a block scalar, list items)', () => {
    for (const text of [
      `${B}${S}format: "line one:\n   two: x"\nwarm: [\n`,
      `${B}schema:\n  type: object\n  description: |\n    a: b\n      c: d\n  required: [\n`,
      `${B}schema:\n  type: object\n  anyOf:\n    - type: object\n      required: [a]\n    - required: [b]\n  x: [\n`,
    ]) {
      const ds = parse(text).diagnostics;
      expect(ds.length, text).toBeGreaterThan(0);
      for (const d of ds) expect(d.message, text).not.toMatch(/indentation/);
    }
  });

  it('hints say what to do', () => {
    const hint = (v: string | Uint8Array) => parse(v).diagnostics[0]!.hint;
    expect(hint('# c\n')).toBe('Fill it in (`toolbox new <id>` scaffolds one) or delete it.');
    expect(hint(new Uint8Array([0]))).toBe(
      'Remove it from the registry folder or rename it so it does not end in .yaml/.yml.',
    );
    expect(hint(new Uint8Array([0xc3]))).toBe('Re-save the file as UTF-8.');
    expect(hint('a: [\n')).toMatch(/^Fix the YAML syntax at this position/);
    expect(hint(`${B}x:\n  constructor: 1\n`)).toBe('Rename or remove this key.');
    expect(hint(`${B}schema: { $ref: "http://x" }\n`)).toBe(
      'Inline the referenced schema under $defs and use "#/$defs/…".',
    );
  });

  it('accepts a good contract (a BOM is dropped), pointers with escapes, and data that only looks like schema', () => {
    for (const text of [
      B + S,
      `\ufeff${B}${S}`,
      `${B}schema:\n  type: object\n  $defs: { "a/b": { type: string }, "t~x": { type: string } }\n  properties:\n    a: { $ref: "#/$defs/a~1b" }\n    b: { $ref: "#/$defs/t~0x" }\n    c: { $ref: "#" }\n`,
      `${B}schema:\n  type: object\n  properties:\n    a: { type: string, enum: [{ pattern: "(" }], default: { $ref: "#/nope" } }\n`,
      `${B}schema:\n  type: object\n  properties:\n    a: { type: string, const: { pattern: "(" }, examples: [{ $ref: "#/nope" }] }\n`,
      `${B}schema:\n  type: object\n  patternProperties: { "^[a-z]+$": { type: string, pattern: "^x" } }\n  properties:\n    "x(": { type: string, description: "Amount (EUR" }\n`,
      `${B}schema:\n  type: object\n  $defs: { a: { $anchor: foo, type: string } }\n  properties:\n    b: { $ref: "#foo" }\n`,
      // A text that looks like a reference under another key; a parameter named `pattern`.
      `${B}schema:\n  type: object\n  properties:\n    a: { type: string, description: "#/nowhere", title: "#/x" }\n`,
      `${B}schema:\n  type: object\n  properties:\n    pattern: { type: string, pattern: "^a+$" }\n`,
    ]) {
      const p = parse(text);
      expect(p.diagnostics).toEqual([]);
      expect(p.contract?.id).toBe('fx');
    }
  });
});

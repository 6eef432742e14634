import { ruleTester } from '../tester.js';

const schema = (q: Record<string, unknown>) => ({
  type: 'object',
  properties: { q: { type: 'string', description: 'The query.', ...q } },
});

ruleTester('pattern-nested-quantifier', {
  valid: [
    {},
    { schema: schema({ pattern: '^[a-z]+(-[a-z]{2})?$' }) },
    // a slug: '-' starts each repetition and [a-z] cannot match it, so the input splits one way only
    { schema: schema({ pattern: '^[a-z]+(-[a-z]+)*$' }) },
    // data, not patterns: enum/const/examples/default values are not walked
    { schema: schema({ enum: ['(a+)+'], examples: [{ pattern: '(a+)+' }], default: '(a+)+' }) },
    { schema: schema({ const: '(a+)+' }) },
    { schema: { type: 'object', properties: { pattern: { type: 'string', description: 'A glob.' } } } },
  ],
  invalid: [
    {
      contract: `id: p
name: P
description: Find the words of a text that match a pattern. Use when the user asks which words fit.
schema:
  type: object
  properties:
    q:
      type: string
      description: The text.
      pattern: "^(a+)+$"
loader: command
loader_config: { argv: [echo] }
`,
      errors: [{ path: 'schema.properties.q.pattern', line: 10, column: 7, message: /pattern "\^\(a\+\)\+\$" nests/ }],
    },
    {
      contract: {
        schema: {
          type: 'object',
          patternProperties: { '^(x+)*$': { type: 'string' }, '^ok$': { type: 'string' } },
          properties: { list: { type: 'array', items: [{ pattern: '(\\w*,?)*' }] } },
        },
        output_schema: { type: 'object', properties: { r: { type: 'string', pattern: '(a|b+)+' } } },
      },
      errors: [
        {
          path: 'schema.patternProperties.^(x+)*$',
          message: /^patternProperties key "\^\(x\+\)\*\$" nests quantifiers$/,
        },
        { path: 'schema.properties.list.items.0.pattern' },
        { path: 'output_schema.properties.r.pattern' },
      ],
    },
    {
      // the same slug whose class also matches '-': '-a-b' repeats as one '-a-b' or as '-a' then '-b'
      contract: { schema: schema({ pattern: '^[a-z]+(-[a-z-]+)*$' }) },
      errors: [{ path: 'schema.properties.q.pattern', message: /^pattern "\^\[a-z\]\+\(-\[a-z-\]\+\)\*\$" nests/ }],
    },
  ],
});

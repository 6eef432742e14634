import { ruleTester } from '../tester.js';
import { REFERENCE_CONTRACT } from '../../helpers.js';

ruleTester('param-type', {
  valid: [
    {},
    REFERENCE_CONTRACT,
    {
      schema: { type: 'object', properties: { unit: { enum: ['c', 'f'], description: 'c: Celsius, f: Fahrenheit.' } } },
    },
    {
      schema: {
        type: 'object',
        properties: {
          n: { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'A number or numeric text.' },
        },
      },
    },
    {
      schema: {
        type: 'object',
        $defs: { c: { type: 'string' } },
        properties: { c: { $ref: '#/$defs/c', description: 'City.' } },
      },
    },
  ],
  invalid: [
    {
      contract: REFERENCE_CONTRACT.replace('      type: string\n', ''),
      errors: [{ path: 'schema.properties.city', line: 7, column: 5, message: /'city' has no type/ }],
    },
    {
      contract: {
        schema: {
          type: 'object',
          properties: {
            opts: { type: 'object', description: 'Options.', properties: { depth: { description: 'How deep.' } } },
          },
        },
      },
      errors: [{ path: 'schema.properties.opts.properties.depth', message: /'opts\.depth'/ }],
    },
    {
      contract: {
        schema: {
          type: 'object',
          properties: { n: { anyOf: [{ type: 'string' }, { description: 'x' }], description: 'A value.' } },
        },
      },
      errors: [{ path: 'schema.properties.n' }],
    },
  ],
});

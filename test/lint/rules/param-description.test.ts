import { ruleTester } from '../tester.js';
import { REFERENCE_CONTRACT } from '../../helpers.js';

const nested = {
  schema: {
    type: 'object',
    properties: {
      address: {
        type: 'object',
        description: 'Where to deliver.',
        properties: { city: { type: 'string' }, zip: { type: 'string', description: 'Postal code.' } },
      },
      items: {
        type: 'array',
        description: 'Lines of the order.',
        items: { type: 'object', properties: { sku: { type: 'string' } } },
      },
    },
  },
};

ruleTester('param-description', {
  valid: [
    {},
    REFERENCE_CONTRACT,
    { schema: { type: 'object', properties: { q: { type: 'string', title: 'Search query' } } } },
    { schema: { type: 'object' } },
  ],
  invalid: [
    {
      contract: REFERENCE_CONTRACT.replace('      description: 城市名称，例如“北京”、“上海”。\n', ''),
      errors: [{ path: 'schema.properties.city', line: 7, column: 5, message: /'city'/ }],
    },
    {
      contract: nested,
      errors: [
        { path: 'schema.properties.address.properties.city', message: /'address\.city'/ },
        { path: 'schema.properties.items.items.properties.sku', message: /'items\[\]\.sku'/ },
      ],
    },
  ],
});

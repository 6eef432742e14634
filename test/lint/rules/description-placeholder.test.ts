import { ruleTester } from '../tester.js';
import { BASE } from '../tester.js';

const withParamDescription = (d: string) => ({
  schema: { ...BASE.schema, properties: { ...BASE.schema.properties, amount: { type: 'number', description: d } } },
});

ruleTester('description-placeholder', {
  valid: [
    {},
    { description: "Adds an item to the user's todo list. Use when the user wants to remember a task for later." },
    { description: 'Formats a masked phone number such as 138xxxxxxxx for display on a receipt.' },
  ],
  invalid: [
    {
      contract: { description: 'TODO: write a description' },
      errors: [{ path: 'description', message: /placeholder.*TODO/ }],
    },
    { contract: { description: 'Convert currencies. TBD' }, errors: [{ message: /TBD/ }] },
    {
      contract: { description: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.' },
      errors: [{ message: /lorem/ }],
    },
    { contract: { description: '功能待定，稍后补充。' }, errors: [{ message: /待定/ }] },
    { contract: { name: 'xxx' }, errors: [{ path: 'name', line: 2, message: /name.*xxx/ }] },
    {
      contract: withParamDescription('FIXME'),
      errors: [{ path: 'schema.properties.amount.description', message: /parameter 'amount'/ }],
    },
  ],
});

import { ruleTester } from '../tester.js';

ruleTester('description-too-long', {
  valid: [
    {},
    { description: 'Convert currencies. '.repeat(50) }, // 1000
  ],
  invalid: [
    {
      contract: { description: 'Convert currencies. '.repeat(60) },
      errors: [{ path: 'description', message: /too long \(1199 characters, at most 1024/ }],
    },
    {
      contract: { description: '把金额从一种货币换算成另一种货币。'.repeat(25) },
      errors: [{ message: /at most 1024/ }],
    },
    { contract: {}, options: { max: 50 }, errors: [{ message: /at most 50/ }] },
  ],
});

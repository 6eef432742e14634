import { ruleTester } from '../tester.js';

ruleTester('description-over-budget', {
  valid: [{}, { description: 'Convert currencies. '.repeat(100) }],
  invalid: [
    {
      contract: { description: 'Convert currencies. '.repeat(110) },
      errors: [{ path: 'description', message: /2200 characters.*drop the last 152/ }],
    },
    // code points, not weighted: 700 CJK characters are within 2048 here but not within 600
    {
      contract: { description: '换算货币金额。'.repeat(100) },
      options: { max: 600 },
      errors: [{ message: /700 characters/ }],
    },
  ],
});

import { ruleTester } from '../tester.js';
import { REFERENCE_CONTRACT } from '../../helpers.js';

ruleTester('description-when-to-use', {
  valid: [
    {},
    { description: 'Look up the weather forecast for a city. Use it when the user asks whether to bring an umbrella.' },
    {
      description:
        "Search the web for recent news. Useful for questions about events after the model's training cutoff.",
    },
    { description: '查询城市的实时天气。当用户询问某地天气时使用。' },
    { description: '把人民币金额换算为美元，适用于跨境报价场景。' },
    { description: 'Sends an email through SMTP when the user wants to notify someone.' },
  ],
  invalid: [
    // The reference design's description says what, not when: a warning, never an error.
    { contract: REFERENCE_CONTRACT, errors: [{ path: 'description', line: 3, column: 1, message: /when to use/ }] },
    {
      contract: { description: 'Converts an amount of money between two currencies at the latest exchange rate.' },
      errors: [{ path: 'description' }],
    },
    { contract: { description: '返回当前北京时间和若干时区的时间。' }, errors: [{ path: 'description' }] },
  ],
});

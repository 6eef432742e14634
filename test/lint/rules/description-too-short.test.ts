import { ruleTester } from '../tester.js';
import { REFERENCE_CONTRACT } from '../../helpers.js';

ruleTester('description-too-short', {
  valid: [
    {},
    REFERENCE_CONTRACT, // 22 CJK characters count as 66
    { description: 'Look up the current weather for a given city.' },
  ],
  invalid: [
    {
      contract: { description: 'Gets weather.' },
      errors: [{ path: 'description', line: 3, message: /too short \(13 of at least 40/ }],
    },
    { contract: { description: '查询天气' }, errors: [{ path: 'description', message: /12 of at least 40/ }] },
    { contract: { description: '' }, errors: [{ path: 'description', message: /empty/ }] },
    {
      contract: { description: 'Look up the current weather for a given city.' },
      options: { min: 60 },
      errors: [{ message: /at least 60/ }],
    },
  ],
});

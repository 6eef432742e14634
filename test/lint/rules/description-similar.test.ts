import { ruleTester } from '../tester.js';

const weather =
  'Look up the current weather and the short-term forecast for a city. Use when the user asks about the weather.';

ruleTester('description-similar', {
  valid: [
    [{}, { description: weather }],
    [
      { description: weather },
      {
        description:
          'Look up air quality (PM2.5, AQI) for a city. Use when the user asks whether the air is safe to breathe.',
      },
    ],
    [
      { description: '查询城市当前天气和未来三天预报。' },
      { description: '把一段中文翻译成英文。当用户需要英文版本时使用。' },
    ],
  ],
  invalid: [
    {
      contract: [
        { id: 'weather_a', description: weather },
        { id: 'weather_b', description: weather.replace('Look up', 'Get') },
      ],
      errors: [
        {
          path: 'description',
          message: /'weather_b' is \d+% alike to that of 'weather_a' \(\/reg\/t0\.yaml:\d+:\d+\)/,
        },
      ],
    },
    {
      contract: [
        { id: 'a', description: '查询城市当前天气情况和未来短期预报。' },
        { id: 'b', description: '查询城市的当前天气情况与未来短期预报' },
      ],
      errors: [{ message: /100% alike/ }],
    },
    {
      contract: [
        { id: 'a', description: weather },
        {
          id: 'b',
          description: 'Look up the current weather for a city. Use when the user asks about the air temperature.',
        },
      ],
      options: { threshold: 0.5 },
      errors: [{ message: /'b' is \d+% alike to that of 'a'.*threshold 50%/ }],
    },
  ],
});

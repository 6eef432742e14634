import { ruleTester } from '../tester.js';

const unit = (s: Record<string, unknown>) => ({
  schema: { type: 'object', properties: { unit: { type: 'string', ...s } } },
});

ruleTester('enum-undocumented', {
  valid: [
    {},
    unit({ enum: ['c', 'f'], description: 'Temperature unit: c for Celsius, f for Fahrenheit.' }),
    unit({
      enum: ['metric', 'imperial'],
      description: 'Unit system.',
      enumDescriptions: ['Celsius, km/h', 'Fahrenheit, mph'],
    }),
    unit({ enum: ['摄氏', '华氏'], description: '温度单位：摄氏或华氏。' }),
    unit({
      oneOf: [
        { const: 'c', description: 'Celsius' },
        { const: 'f', description: 'Fahrenheit' },
      ],
      description: 'Unit.',
    }),
  ],
  invalid: [
    {
      contract: unit({ enum: ['c', 'f'] }),
      errors: [{ path: 'schema.properties.unit.enum', message: /'unit'.*"c", "f"/ }],
    },
    // "c" inside "city" or "Celsius" does not count as explaining the value c.
    {
      contract: unit({ enum: ['c', 'f'], description: 'Celsius or Fahrenheit, per city.' }),
      errors: [{ message: /"c", "f"/ }],
    },
    {
      contract: unit({ enum: ['fast', 'best', 'cheap'], description: 'fast: lowest latency; best: highest quality.' }),
      errors: [{ message: /"cheap"/ }],
    },
  ],
});

import { fixtureProject } from '../select/fixture.js';

/**
 * A contract whose description is hostile markup: if the report ever put contract text into the
 * page as HTML, these would run (they set window.__pwned) or load an image.
 */
export const HOSTILE_DESCRIPTION =
  'Share price quote of a listed company stock by ticker. <script>window.__pwned=1</script>' +
  '<img src=x onerror="window.__pwned=2"> </script><script>window.__pwned=3</script> <!-- \u2028 \u2029 -->';

const HOSTILE = `id: stock_quote
name: Stock quote
description: ${JSON.stringify(HOSTILE_DESCRIPTION)}
schema:
  type: object
  properties:
    ticker: { type: string, description: Stock ticker symbol. }
  required: [ticker]
tags: [finance]
loader: command
loader_config:
  argv: ["echo", "{{ticker}}"]
`;

const ALERTS = `id: weather_alerts
name: Weather alerts
description: Severe weather warnings and weather alerts for a region (storms, floods, heat), weather advisories.
schema:
  type: object
  properties:
    region: { type: string, description: Region name. }
  required: [region]
tags: [weather]
loader: command
loader_config:
  argv: ["echo", "{{region}}"]
`;

/** Labelled queries with hits, misses, a translated match and a pair of confusable tools. */
export const REPORT_CASES =
  [
    { query: '查询北京今天天气', relevant: ['query_weather'] },
    { query: 'send an email to my manager', relevant: ['send_email'] },
    { query: 'zebra quokka', relevant: ['read_file'] },
    { query: 'share price quote of a listed company', relevant: ['stock_price'] },
    { query: 'stock ticker quote', relevant: ['stock_price'] },
    { query: '天气预警', relevant: ['query_weather'] },
    { query: '暴雨预警', relevant: ['query_weather'] },
    { query: 'translate this sentence into French', relevant: ['translate_text'] },
  ]
    .map((c) => JSON.stringify(c))
    .join('\n') + '\n';

/** The select fixture registry plus a hostile contract and a weather tool that steals weather queries. */
export function reportProject(files: Record<string, string> = {}) {
  return fixtureProject({
    'tool_registry/stock_quote.yaml': HOSTILE,
    'tool_registry/weather_alerts.yaml': ALERTS,
    'cases.jsonl': REPORT_CASES,
    ...files,
  });
}

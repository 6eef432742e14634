// The official MCP conformance suite's server scenarios against `toolbox serve --http --expose all`
// on the fixture registry of test/fixtures/conformance, once per protocol revision it serves
// (--requirements 2025-11-25 and 2026-07-28): one line per scenario (passed/failed checks).
import { REVISIONS, runSuite, serveFixture, summaryLines, SUITE_VERSION } from '../scripts/conformance.mjs';

export default async function () {
  const fx = await serveFixture({ args: ['--expose', 'all'] });
  try {
    for (const revision of REVISIONS) {
      const r = await runSuite(fx.url, { revision });
      console.log(`\nMCP conformance suite ${SUITE_VERSION}, server scenarios, --requirements ${revision}:\n`);
      console.log(summaryLines(r.scenarios).join('\n'));
      console.log(
        r.exitCode === 0 ? 'baseline: every failure expected' : 'baseline: UNEXPECTED failures or stale entries',
      );
      if (r.exitCode !== 0) process.exitCode = 1;
    }
  } finally {
    await fx.close();
  }
}

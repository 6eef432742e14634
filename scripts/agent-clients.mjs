// Agent frameworks' MCP clients, for test/serve/agent-clients.test.ts: LangChain's MCP adapters and
// the Vercel AI SDK's MCP client, at pinned versions that install and run on Node 20. They are test
// tools, not dependencies of toolbox (with their peers, ~95 MB): installed once into
// <os.tmpdir()>/toolbox-agent-clients-<hash of the versions>, outside the project, and reused.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installOnce } from './install-once.mjs';

export const CLIENT_PACKAGES = {
  '@langchain/mcp-adapters': '1.1.4',
  '@langchain/core': '1.4.0',
  '@langchain/langgraph': '1.7.3',
  '@ai-sdk/mcp': '1.0.102',
  zod: '4.6.7',
};

/** Install the clients (once; cached). Returns the folder whose node_modules holds them. */
export async function ensureClients(packages = CLIENT_PACKAGES) {
  const specs = Object.entries(packages).map(([n, v]) => `${n}@${v}`);
  const hash = createHash('sha256').update(specs.join(' ')).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `toolbox-agent-clients-${hash}`);
  return installOnce(dir, specs, { pkg: { name: 'toolbox-agent-clients', type: 'module' } });
}

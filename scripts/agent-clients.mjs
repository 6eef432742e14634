// Agent frameworks' MCP clients, for test/serve/agent-clients.test.ts: LangChain's MCP adapters and
// the Vercel AI SDK's MCP client, at pinned versions that install and run on Node 20. They are test
// tools, not dependencies of toolbox (with their peers, ~95 MB): installed once into
// <os.tmpdir()>/toolbox-agent-clients-<hash of the versions>, outside the project, and reused.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const CLIENT_PACKAGES = {
  '@langchain/mcp-adapters': '1.1.4',
  '@langchain/core': '1.4.0',
  '@langchain/langgraph': '1.7.3',
  '@ai-sdk/mcp': '1.0.102',
  zod: '4.6.7',
};
const run = promisify(execFile);

/** Install the clients (once; cached). Returns the folder whose node_modules holds them. */
export async function ensureClients(packages = CLIENT_PACKAGES) {
  const specs = Object.entries(packages).map(([n, v]) => `${n}@${v}`);
  const hash = createHash('sha256').update(specs.join(' ')).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `toolbox-agent-clients-${hash}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  const work = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(
      join(work, 'package.json'),
      '{ "name": "toolbox-agent-clients", "private": true, "type": "module" }\n',
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict=true', ...specs], {
      cwd: work,
      timeout: 600_000,
      maxBuffer: 16 << 20,
    });
    writeFileSync(join(work, '.complete'), new Date().toISOString() + '\n');
    if (existsSync(dir) && !existsSync(join(dir, '.complete'))) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      if (!existsSync(join(dir, '.complete'))) throw e; // someone else finished first: use theirs
      rmSync(work, { recursive: true, force: true });
    }
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

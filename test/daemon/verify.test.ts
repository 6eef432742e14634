// The daemon re-verifies a large registry's index in its own process, after answering: no verifier
// process per check while nothing changed, and a contract rewritten in place (same size, mtime put
// back, folder untouched: invisible to the folder journal) is still found by the next requests.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/config.js';
import { JOURNAL_MIN_FILES } from '../../src/select/journal.js';
import { openIndex } from '../../src/select/store.js';
import { spawnCli, tempProject } from '../helpers.js';

const N = JOURNAL_MIN_FILES + 100;
const TOPICS = ['weather', 'invoice', 'flight', 'recipe', 'ticket', 'stock', 'email', 'hotel'];
let p: ReturnType<typeof tempProject>;
let runtimeDir: string;
const file = (i: number) => join(p.dir, 'tool_registry', `g${Math.floor(i / 500)}`, `t${i}.yaml`);
const contract = (i: number, extra = '') =>
  `id: tool_${i}\nname: Tool ${i}\ndescription: ${extra}Look up the ${TOPICS[i % 8]} records number ${i} for the user and summarise them.\n` +
  `schema: {type: object, properties: {key: {type: string, description: The key.}}, required: [key]}\n` +
  `loader: command\nloader_config: {argv: [echo, '{{key}}']}\n`;
const tb = (argv: string[]) => spawnCli(argv, { cwd: p.dir, env: { XDG_RUNTIME_DIR: runtimeDir } });
const select = async (q: string) => {
  const r = await tb(['select', q, '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { results: { id: string }[] }).results.map((x) => x.id);
};
const requests = async () =>
  (JSON.parse((await tb(['daemon', 'status', '--json'])).stdout) as { requests: number }).requests;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Verifier processes of this registry seen while `during` runs (/proc polled every 5 ms). */
async function verifiersDuring(during: () => Promise<void>): Promise<number> {
  const seen = new Set<string>();
  let done = false;
  const watch = (async () => {
    while (!done) {
      for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          if (cmd.includes('verify-main.js') && cmd.includes(p.dir)) seen.add(pid);
        } catch {
          /* gone */
        }
      }
      await sleep(5);
    }
  })();
  try {
    await during();
  } finally {
    done = true;
    await watch;
  }
  return seen.size;
}

beforeAll(async () => {
  p = tempProject();
  runtimeDir = mkdtempSync(join(tmpdir(), 'toolbox-xdg-'));
  for (let g = 0; g * 500 < N; g++) mkdirSync(join(p.dir, 'tool_registry', `g${g}`), { recursive: true });
  for (let i = 0; i < N; i++) writeFileSync(file(i), contract(i, i === 1999 ? 'Walrus ferry. ' : ''));
  // Folders older than the journal's racy window, as in a registry nobody touched for a while.
  const old = new Date(Date.now() - 60_000);
  for (let g = 0; g * 500 < N; g++) utimesSync(join(p.dir, 'tool_registry', `g${g}`), old, old);
  utimesSync(join(p.dir, 'tool_registry'), old, old);
  // An exact index (every token counted) and the folder journal, as after the verifier's first run.
  await openIndex(resolveProject({ cwd: p.dir }), { full: true, tokens: true });
  expect((await tb(['daemon', 'start', '--json'])).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await tb(['daemon', 'stop']);
  p?.cleanup();
  rmSync(runtimeDir, { recursive: true, force: true });
}, 30_000);

describe('the daemon re-verifies a large registry in its own process', () => {
  it('while nothing changes, selects over more than one check interval start no verifier process', async () => {
    const marker = join(p.dir, '.toolbox', 'cache', 'select-verified');
    rmSync(marker, { force: true });
    const before = await requests();
    let answers = 0;
    const seen = await verifiersDuring(async () => {
      for (const end = Date.now() + 4000; Date.now() < end; answers++) {
        expect(await select('walrus ferry')).toContain('tool_1999');
        await sleep(200);
      }
    });
    expect(seen).toBe(0);
    expect(await requests()).toBe(before + answers); // each went through the daemon
    expect(existsSync(marker)).toBe(true); // and the check ran (its throttle marker)
  }, 60_000);

  it('catches a contract rewritten in place (same size, mtime kept) that no result names', async () => {
    const f = file(1999);
    const { atime, mtime, size } = statSync(f);
    expect(await select('quokka')).toEqual([]);
    writeFileSync(f, contract(1999, 'Quokka ferry. ')); // same length as 'Walrus ferry. '
    utimesSync(f, atime, mtime);
    expect(statSync(f).size).toBe(size);
    let found: string[] = [];
    for (const end = Date.now() + 20_000; Date.now() < end && !found.length; await sleep(250))
      found = await select('quokka');
    expect(found).toEqual(['tool_1999']);
  }, 60_000);
});

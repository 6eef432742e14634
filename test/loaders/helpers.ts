import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getLoader } from '../../src/loaders/index.js';
import type { CallContext, LoadedTool } from '../../src/loaders/types.js';
import type { LoaderType, SandboxPolicy, ToolContract } from '../../src/contract/types.js';
import { resolveLimits } from '../../src/sandbox/index.js';

/** The fixture folder, used as the project root (python modules and node modules are found from it). */
export const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'tools');

// State (the sandbox probe cache) goes to a temp folder, never into test/fixtures/tools.
let stateDir: string | undefined;

/** Load one tool through the real loader API, as the runtime does. */
export async function loadTool(
  loader: LoaderType,
  loaderConfig: Record<string, unknown>,
  opts: { root?: string; longRunning?: boolean; sandbox?: SandboxPolicy; id?: string } = {},
): Promise<LoadedTool> {
  const root = opts.root ?? FIXTURES;
  const contract: ToolContract = {
    id: opts.id ?? 'l_test_tool',
    name: 'test tool',
    description: 'a fixture tool',
    schema: { type: 'object' },
    loader,
    loader_config: loaderConfig,
    sandbox: opts.sandbox,
  };
  stateDir ??= mkdtempSync(join(tmpdir(), 'toolbox-loader-state-'));
  const project = { root, registryDir: join(root, 'tool_registry'), stateDir, config: {} };
  return (await getLoader(loader)).load({
    project,
    entry: { contract, file: join(root, 'tool_registry', 'l_test_tool.yaml'), line: 1 },
    longRunning: opts.longRunning ?? false,
    verbose: false,
  });
}

/** A CallContext with the default limits (optionally changed), as the runtime builds it. */
export function callCtx(
  opts: { timeout?: number | string; sandbox?: SandboxPolicy; env?: Record<string, string>; signal?: AbortSignal } = {},
): CallContext {
  return {
    signal: opts.signal ?? new AbortController().signal,
    limits: resolveLimits(opts.sandbox, opts.timeout),
    network: opts.sandbox?.network ?? false,
    env: opts.env ?? {},
    readOnlyPaths: [],
    granted: () => [],
  };
}

/** Await a promise expected to reject; returns the error (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    const v = await p;
    throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('expected a rejection')) throw e;
    return e as Error & Record<string, unknown>;
  }
}

/** One argument of every JSON type, with strings that break naive quoting. */
export const ALL_TYPES = {
  quotes: `double " single ' back \\ dollar $HOME backtick \` semicolon ; newline\nend`,
  unicode: '北京 查询天气 — café 🌧️ \u0000 nul',
  integer: 42,
  big: 9007199254740991,
  negative: -7,
  number: -3.25,
  yes: true,
  no: false,
  list: [1, 'two', [3, { four: 4 }], null],
  nested: { a: { b: [{ c: null, d: 'e' }] }, empty: {} },
  nothing: null,
  empty: '',
};

/** Host pids of processes whose environment holds `NAME=value` (to prove a tool's processes are gone). */
export function pidsWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/environ`, 'latin1').split('\0').includes(needle)) out.push(Number(d));
    } catch {
      /* gone or not readable */
    }
  }
  return out;
}

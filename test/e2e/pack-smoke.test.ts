// The installed product, not the clone: `npm pack` (with its real prepack), then README's Quick start
// lines run literally in a fresh project (npm 11's `npm init -y`: "type": "commonjs"), read from
// README.md itself so that this test breaks when README changes; then README's tour, its MCP client
// snippet, the library from strict TypeScript without @types/node, an example from the installed
// package (examples/), and from require().
// Builds a copy of the sources (never this worktree's dist/, which other tests are using).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../helpers.js';
import { replay, runExample } from '../examples/replay.js';
import { chat } from '../examples/scenarios.js';

const TMP = mkdtempSync(join(tmpdir(), 'toolbox-pack-'));
const SRC = join(TMP, 'src');
const APP = join(TMP, 'app');
// A clean environment: nothing inherited from the `npm test` that may be running us.
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb', NO_COLOR: '1' };
const NAME = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string }).name;

function sh(cwd: string, cmd: string, args: string[], timeout = 120_000) {
  const r = spawnSync(cmd, args, { cwd, env: ENV, encoding: 'utf8', timeout, maxBuffer: 32 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` };
}
const toolbox = (...args: string[]) => sh(APP, 'npx', ['--no-install', 'toolbox', ...args]);
const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The lines of the first fenced block of `lang` after `heading` that contains `containing` (comments kept: sh drops them). */
function readmeBlock(heading: string, containing: string, lang = 'sh'): string[] {
  const from = README.indexOf(`\n${heading}\n`);
  expect(from, `README has no heading ${heading}`).toBeGreaterThan(-1);
  for (const m of README.slice(from).matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))) {
    if (m[1]!.includes(containing)) return m[1]!.split('\n').filter((l) => l.trim() && !/^\s*#/.test(l));
  }
  throw new Error(`README: no ${lang} block with ${containing} under ${heading}`);
}

let tarball = '';
let install = { code: 0 as number | null, all: '' };

// README's Quick start: what to run in the copy of the repository, and what in the project.
const BUILD = readmeBlock('## Quick start', 'npm pack');
const QUICK = readmeBlock('## Quick start', 'npx toolbox init');
const quick: { line: string; code: number | null; all: string }[] = [];

beforeAll(() => {
  for (const f of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'LICENSE',
    'LICENSE-CC-CEDICT',
    'LICENSE-FREQUENCYWORDS',
    'README.md',
  ])
    cpSync(join(REPO, f), join(SRC, f));
  for (const d of ['bin', 'src', 'scripts', 'schemas', 'templates', 'docs', 'examples', 'data'])
    cpSync(join(REPO, d), join(SRC, d), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(SRC, 'node_modules'), 'dir');
  // The copy's node_modules is this worktree's (a link): `npm ci` there would replace it, so only
  // the rest of README's build line runs (asserted below to be `npm ci && npm pack`).
  const pack = sh(SRC, 'npm', ['pack', '--json', '--pack-destination', TMP], 180_000);
  expect(pack.code, pack.stderr).toBe(0);
  tarball = join(TMP, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
  expect(sh(TMP, 'mkdir', ['app']).code).toBe(0);
  expect(sh(APP, 'npm', ['init', '-y']).code).toBe(0);
  // An app that already uses another major of the OpenTelemetry SDK (a local stand-in of 1.30.1):
  // toolbox must install next to it (no peer ranges to conflict with) and never use it by mistake.
  const standIn = join(TMP, 'otel-stand-in');
  mkdirSync(standIn);
  writeFileSync(
    join(standIn, 'package.json'),
    JSON.stringify({ name: '@opentelemetry/sdk-trace-node', version: '1.30.1', main: 'index.js' }),
  );
  writeFileSync(join(standIn, 'index.js'), 'module.exports = {};\n');
  const pre = sh(APP, 'npm', ['install', '--no-audit', '--no-fund', standIn], 180_000);
  expect(pre.code, pre.all).toBe(0);
  // README's project lines, as written: only the folder of the copy is this test's.
  for (const line of QUICK) {
    const cmd = line.replaceAll('/path/to/toolbox/', `${TMP}/`);
    const r = sh(APP, 'sh', ['-c', cmd], 300_000);
    quick.push({ line, code: r.code, all: r.all });
    if (r.code !== 0) break;
  }
  install = quick[0] ?? install;
}, 600_000);
// The installed project is ~120 MB of small files: deleting it takes a while on a busy machine.
afterAll(() => rmSync(TMP, { recursive: true, force: true }), 300_000);

describe(`the packed ${NAME} tarball`, () => {
  it('holds the prebuilt dist/, the docs README links to and the LICENSE, and no prepare script', () => {
    const list = sh(TMP, 'tar', ['tzf', tarball]).stdout.split('\n');
    for (const f of [
      'dist/main.js',
      'dist/cli.cjs',
      'dist/launch.cjs',
      'dist/index.d.ts',
      'bin/toolbox.js',
      'bin/package.json',
      'LICENSE',
      // The data the selector reads at run time, with the licences they are shipped under.
      'data/cedict-zh-en.tsv',
      'data/cedict-t2s.tsv',
      'data/talk-freq.tsv',
      'LICENSE-CC-CEDICT',
      'LICENSE-FREQUENCYWORDS',
      'docs/run.md',
      'schemas/contract.schema.json',
      'examples/README.md',
      'examples/openai-chat.mjs',
    ])
      expect(list).toContain(`package/${f}`);
    expect(list.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    for (const [, link] of readme.matchAll(/\]\(((?:docs|examples)\/[^)#]+)/g))
      expect(list).toContain(`package/${link}`);
    const pkg = JSON.parse(sh(TMP, 'tar', ['xzOf', tarball, 'package/package.json']).stdout) as {
      scripts: Record<string, string>;
      bin: Record<string, string>;
      private?: boolean;
    };
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.private).toBeUndefined();
    expect(Object.keys(pkg.bin).sort()).toEqual([NAME, 'toolbox'].sort());
  });

  it('`npm publish --dry-run` is clean: no warning, no correction of the manifest, the files a user needs', () => {
    // Scripts off: the pack above already built dist/. Any registry contact would fail (loopback port 9).
    const r = sh(
      SRC,
      'npm',
      // A stand-in token: without one npm warns that publishing needs a login (true, and not a defect).
      [
        'publish',
        '--dry-run',
        '--json',
        '--ignore-scripts',
        '--registry',
        'http://127.0.0.1:9/',
        '--//127.0.0.1:9/:_authToken=dry-run-only',
      ],
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => /npm (warn|error)/i.test(l))).toEqual([]);
    // npm 11 keys the document by package name; npm 10 printed it bare.
    const out = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Record<string, unknown>;
    const doc = (out.id ? out : Object.values(out)[0]) as { id: string; files: { path: string }[] };
    expect(doc.id).toMatch(new RegExp(`^${NAME}@\\d+\\.\\d+\\.\\d+`));
    const files = doc.files.map((f) => f.path);
    for (const f of ['dist/index.js', 'dist/cli.cjs', 'bin/toolbox.js', 'README.md', 'LICENSE'])
      expect(files).toContain(f);
    expect(files.filter((f) => /^(test|src|\.toolbox|node_modules)\//.test(f))).toEqual([]);
  }, 180_000);

  it("README's Quick start runs as written: build line, install from the tarball, init, validate, run", () => {
    expect(BUILD).toEqual([expect.stringMatching(/^npm ci && npm pack\s+#/)]);
    expect(tarball).toMatch(new RegExp(`/${NAME}-\\d+\\.\\d+\\.\\d+\\.tgz$`));
    expect(QUICK[0]).toMatch(/^npm install --save-dev \/path\/to\/toolbox\/agent-toolbox-\*\.tgz /);
    for (const q of quick) expect({ line: q.line, code: q.code, out: q.all }).toMatchObject({ code: 0 });
    expect(quick.map((q) => q.line)).toEqual(QUICK);
    expect(quick[quick.length - 1]!.all).toMatch(/words: +3/);
    expect(readFileSync(join(APP, '.gitignore'), 'utf8')).toContain('.toolbox/');
    expect(JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8')).devDependencies[NAME]).toMatch(/^file:/);
    // The registry name is promised only for later, and the package names no repository that does not exist.
    expect(README).toMatch(
      /Once `agent-toolbox` is published on the npm registry, `npm install --save-dev agent-toolbox`/,
    );
    const pkg = JSON.parse(readFileSync(join(APP, 'node_modules', NAME, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const k of ['repository', 'homepage', 'bugs']) expect(pkg[k], k).toBeUndefined();
  });

  it('installs into a fresh project without install-script warnings', () => {
    expect(install.code, install.all).toBe(0);
    expect(install.all).not.toMatch(/install-scripts/);
  });

  it("README's tour runs line by line in that project (the example-registry lines are set apart)", () => {
    const tour = readmeBlock('## A tour', 'toolbox init');
    const skip = /^toolbox (init|serve|import|completion)\b|^source /; // done above, long-running, or networked
    let filled = false;
    for (const line of tour) {
      if (skip.test(line)) continue;
      const r = sh(APP, 'sh', ['-c', `npx --no-install ${line}`]);
      if (/^toolbox validate/.test(line) && !filled) {
        // new's stub: validate names its TODO, and nothing else, until the user fills it in.
        expect(r.code, `${line}\n${r.all}`).toBe(1);
        expect(r.all).toMatch(/TODO/);
        const c = join(APP, 'tool_registry', 'shop_hours.yaml');
        writeFileSync(c, readFileSync(c, 'utf8').replace(/"TODO:[^"]*"/, 'The shop, as "name, city".'));
        const py = join(APP, 'my_tools', 'shop_hours.py');
        writeFileSync(py, readFileSync(py, 'utf8').replace(/raise NotImplementedError\(.*\)/, 'return "9:00-18:00"'));
        filled = true;
        const again = toolbox('validate');
        expect(again.code, again.all).toBe(0);
        continue;
      }
      expect({ line, code: r.code, out: r.all }).toMatchObject({ code: 0 });
    }
    expect(filled).toBe(true);
    expect(JSON.parse(toolbox('run', 'shop_hours', '--input', 'Lidl, Lyon', '--json').stdout).result).toBe(
      '9:00-18:00',
    );
    // The second block names tools this project does not have: README says so before it.
    const example = readmeBlock('## A tour', 'query_weather');
    expect(example.some((l) => /query_weather/.test(l))).toBe(true);
    expect(toolbox('show', 'query_weather').code).toBe(2);
    expect(README).toMatch(/These name tools of the shipped example registry/);
    const sel = toolbox('select', 'how many words are in this paragraph', '--json');
    expect((JSON.parse(sel.stdout) as { results: { id: string }[] }).results[0]!.id).toBe('word_count');
    expect(sh(APP, 'npx', ['--no-install', NAME, '--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // The HTML reports find their page code (dist/report/app/) and uPlot (a dependency) when installed.
    writeFileSync(join(APP, 'cases.jsonl'), '{"query": "count the words of a text", "relevant": ["word_count"]}\n');
    for (const args of [
      ['eval', 'cases.jsonl', '--report', 'eval.html'],
      ['stats', '--report', 'stats.html'],
    ]) {
      const r = toolbox(...args);
      expect(r.code, r.all).toBe(0);
      const html = readFileSync(join(APP, args[args.length - 1]!), 'utf8');
      expect(html).toContain('var uPlot=');
      expect(html).toContain('TB.start(');
    }
  }, 180_000);

  it("README's MCP client snippet starts serve from the local install, from any folder", async () => {
    const json = readmeBlock('## MCP', 'mcpServers', 'json').join('\n').replaceAll('/abs/path', APP);
    const server = (JSON.parse(json) as { mcpServers: { toolbox: { command: string; args: string[] } } }).mcpServers
      .toolbox;
    expect(server.command).toBe(join(APP, 'node_modules', '.bin', 'toolbox'));
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    // An MCP client starts it from wherever it runs (here /), with its own environment.
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      cwd: '/',
      env: ENV as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'readme-snippet', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['call_tool', 'search_tools']);
      const r = (await client.callTool({
        name: 'call_tool',
        arguments: { id: 'word_count', arguments: { text: 'a b c' } },
      })) as {
        isError?: boolean;
        content: { type: string; text: string }[];
      };
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      expect(JSON.stringify(r.content)).toMatch(/words.{0,6}3/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('leaves out the OpenTelemetry SDK: tracing asked for runs the tool untraced and says so once, without secrets', () => {
    const pkg = JSON.parse(readFileSync(join(APP, 'node_modules', NAME, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies).filter((d) => d.startsWith('@opentelemetry/'))).toEqual([
      '@opentelemetry/api',
    ]);
    expect(pkg.peerDependencies).toBeUndefined();
    expect(existsSync(join(APP, 'node_modules', '@opentelemetry', 'sdk-metrics'))).toBe(false);
    expect(existsSync(join(APP, 'node_modules', '@opentelemetry', 'api'))).toBe(true);
    // The app's own 1.x stand-in is still there, untouched.
    expect(
      JSON.parse(readFileSync(join(APP, 'node_modules', '@opentelemetry', 'sdk-trace-node', 'package.json'), 'utf8'))
        .version,
    ).toBe('1.30.1');

    const traced = { ...ENV, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://alice:s3cr3t@127.0.0.1:9/v1?api_key=XYZ' };
    const npx = (env: Record<string, string | undefined>, ...args: string[]) =>
      spawnSync('npx', ['--no-install', 'toolbox', ...args], { cwd: APP, env, encoding: 'utf8', input: '' });
    const r = npx(traced, 'run', 'word_count', '--text', 'a b c', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('"words":3');
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: tracing is on'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('(http://127.0.0.1:9) but the OpenTelemetry SDK is not installed');
    expect(warnings[0]).toContain('npm install @opentelemetry/sdk-trace-node@2.12 ');
    expect(r.stderr).not.toMatch(/s3cr3t|XYZ|alice/);
    // A failed command under --json: stderr is its one error document and nothing else.
    const bad = npx(traced, 'run', 'word_count', '--json');
    expect(bad.status).toBe(2);
    expect((JSON.parse(bad.stderr) as { error: { code: string } }).error.code).toBe('invalid_arguments');
    // Turned off on purpose: nothing to say.
    const off = npx({ ...traced, OTEL_SDK_DISABLED: 'true' }, 'run', 'word_count', '--text', 'a b c', '--json');
    expect(off.status, off.stderr).toBe(0);
    expect(off.stderr).not.toContain('tracing is on');
    // serve says it on its start line (stdin closed at once: it then stops with 0).
    const serve = spawnSync('npx', ['--no-install', 'toolbox', 'serve'], {
      cwd: APP,
      env: traced,
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
    });
    expect(serve.status, serve.stderr).toBe(0);
    expect(serve.stderr).toMatch(/toolbox serve: tracing is on \(http:\/\/127\.0\.0\.1:9\) but the OpenTelemetry SDK/);
    expect(serve.stderr).not.toMatch(/s3cr3t|XYZ/);
  });

  it('the library compiles under strict TypeScript without @types/node, with typed definitions, and runs', () => {
    writeFileSync(
      join(APP, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: [],
          skipLibCheck: false,
          outDir: 'out',
        },
        files: ['use.mts'],
      }),
    );
    writeFileSync(
      join(APP, 'use.mts'),
      `import { Runtime, resolveProject, loadRegistry, toDefinitions, selectDefinitions, runToolCall } from '${NAME}';
const project = resolveProject({ cwd: '.' });
const contracts = [...loadRegistry(project).byId.values()].map((e) => e.contract);
const names: string[] = toDefinitions(contracts, 'openai').map((d) => d.function.name);
const schema: string = JSON.stringify(toDefinitions(contracts, 'anthropic')[0]!.input_schema);
const rt = new Runtime(project);
const r = await rt.invoke({ id: 'word_count', args: { text: 'one two three' } });
const picked: string[] = (await selectDefinitions(rt, 'count the words', 'openai-responses')).map((d) => d.name);
const use = { type: 'tool_use' as const, id: 'toolu_1', name: 'word_count', input: { text: 'a b' } };
const answer: { tool_use_id: string; content: string; is_error?: true } = await runToolCall(rt, use);
await rt.close();
console.log(JSON.stringify({ names: names.sort(), text: r.text, schema: schema.length > 0, picked, answer }));
`,
    );
    const tsc = sh(APP, process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
    expect(tsc.all.trim(), tsc.all).toBe('');
    expect(tsc.code).toBe(0);
    const out = sh(APP, process.execPath, ['out/use.mjs']);
    expect(out.code, out.all).toBe(0);
    const res = JSON.parse(out.stdout) as { names: string[]; text: string; picked: string[]; answer: object };
    expect(res.names).toEqual(['shop_hours', 'word_count']);
    expect(res.picked[0]).toBe('word_count');
    expect(res.answer).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: expect.stringContaining('2'),
    });
    expect(res.text).toContain('3');
  });

  it('an example runs from the installed package with the SDK the user installed (examples/ ships)', async () => {
    // The user's `npm install openai`, stood in for by this checkout's copy (no download in this test).
    symlinkSync(join(REPO, 'node_modules', 'openai'), join(APP, 'node_modules', 'openai'));
    const server = await replay([
      {
        path: '/v1/chat/completions',
        body: chat(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_w1',
                type: 'function',
                function: { name: 'word_count', arguments: '{"text":"one two three"}' },
              },
            ],
          },
          'tool_calls',
        ),
      },
      { path: '/v1/chat/completions', body: chat({ role: 'assistant', content: 'Three words.' }, 'stop') },
    ]);
    try {
      const example = join(APP, 'node_modules', NAME, 'examples', 'openai-chat.mjs');
      const r = await runExample(example, 'count the words in "one two three"', {
        cwd: APP,
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('Three words.');
      expect(server.seen[0]!.body.tools[0].function.name).toBe('word_count');
      expect(server.seen[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w1' });
      expect(server.seen[1]!.body.messages.at(-1).content).toContain('3');
    } finally {
      await server.close();
    }
  });

  it('CommonJS require() works (the consumer is "type": "commonjs")', () => {
    expect(JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8')).type).toBe('commonjs');
    const r = sh(APP, process.execPath, [
      '-e',
      `const t = require('${NAME}'); console.log(typeof t.Runtime, typeof t.toDefinitions)`,
    ]);
    expect(r.code, r.all).toBe(0);
    expect(r.stdout.trim()).toBe('function function');
  });
});

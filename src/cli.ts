import { Command, Option } from 'commander';
import type { IO } from './io.js';
import { exitCodeTable } from './errors.js';
import { dispatch } from './dispatch.js';
import { packageVersion } from './util/version.js';

const FORMATS_VALIDATE = ['human', 'json', 'github', 'sarif'];

/**
 * The commander tree. Each action imports its command module only when it runs, so
 * `toolbox --help` and `--version` load nothing but commander and this file.
 */
export function buildProgram(io: IO, setExit: (code: number) => void, opts: { json?: boolean } = {}): Command {
  const program = new Command('toolbox');
  program
    .description('Tool registries for AI agents with on-demand loading: contracts, selection, sandboxed lazy runtime.')
    .version(packageVersion(), '-V, --version')
    .option('--json', 'machine-readable output: one JSON document on stdout, errors as JSON on stderr')
    .option('--registry <dir>', 'registry folder (default: from toolbox.config.yaml, else ./tool_registry)')
    .option('--config <file>', 'config file (default: nearest toolbox.config.yaml)')
    .option('-v, --verbose', 'more detail: sandbox tier, timings, stack traces')
    .option('--no-color', 'no colour')
    // Subcommands inherit this: `toolbox validate --help` also lists --json, --registry, ...
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // Under --json, main.ts reports commander's usage errors as the one JSON error object.
      writeErr: (s) => {
        if (!opts.json) io.stderr.write(s);
      },
    });

  const lazy =
    (file: string, fn: string) =>
    async (...all: unknown[]) => {
      const cmd = all[all.length - 1] as Command;
      const o = cmd.optsWithGlobals() as Record<string, unknown>;
      setExit(await dispatch(io, file, fn, cmd.processedArgs as unknown[], o, cmd));
    };

  program
    .command('init')
    .argument('[dir]', 'project folder', '.')
    .description('start a registry: toolbox.config.yaml, a registry folder and a working example tool')
    .option('-y, --yes', 'no questions; use defaults')
    .option('--force', 'overwrite existing files')
    .option('--registry-dir <name>', 'registry folder name', 'tool_registry')
    .addOption(
      new Option('--loader <type>', 'loader of the first tool').choices([
        'python_function',
        'node_module',
        'command',
        'http',
        'mcp',
      ]),
    )
    .option('--tool <id>', 'id of the first tool')
    .action(lazy('init', 'initCommand'));

  program
    .command('new')
    .argument('<id>', 'tool id (snake_case)')
    .description('scaffold a tool contract and its implementation stub')
    .addOption(
      new Option('--loader <type>', 'loader type')
        .choices(['python_function', 'node_module', 'command', 'http', 'mcp'])
        .default('python_function'),
    )
    .option('--description <text>', 'what the tool does and when to use it')
    .option('--name <name>', 'human-readable name')
    .option('--force', 'overwrite existing files')
    .action(lazy('new', 'newCommand'));

  program
    .command('validate')
    .argument('[files...]', 'only report on these contract files (for lint-staged / pre-commit)')
    .description('check every contract and lint descriptions (for CI)')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS_VALIDATE).default('human'))
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 at or above this severity')
        .choices(['error', 'warning'])
        .default('error'),
    )
    .option('--no-routing', "skip the check that each tool's examples select it")
    .option('--locked', 'also fail when a tool differs from toolbox.lock (grants, wording, code, deps)')
    .option('--quiet', 'report errors only (warnings still count for --max-warnings)')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .action(lazy('validate', 'validateCommand'));

  program
    .command('lock')
    .description('write toolbox.lock: per tool, hashes of what the model sees and what runs, the sandbox grant, deps')
    .action(lazy('lock', 'lockCommand'));

  program
    .command('list')
    .description('list tools: id, loader, tags, description, token cost')
    .option('--tag <tag>', 'only tools with this tag')
    .action(lazy('list', 'listCommand'));

  program
    .command('show')
    .argument('<id>', 'tool id')
    .description('show one contract, resolved, with its file path')
    .action(lazy('show', 'showCommand'));

  program
    .command('run')
    .argument('<id>', 'tool id')
    .argument('[toolArgs...]', 'tool arguments as --<param> <value>')
    .description('run a tool through the agent pipeline: validate, load lazily, sandbox, format')
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .action(lazy('run', 'runCommand'));

  program
    .command('select')
    .argument('<query>', 'what the user asked; a tool id or `select:id1,id2` names tools directly')
    .description('show which tools a query would get, with scores and why')
    .option('-k, --top <n>', 'at most how many tools (fewer when the scores fall off)', '5')
    .option('--min-score <x>', 'drop tools scoring below this (on top of the relative cut-off)')
    .option('--session <id>', 'session id: earlier turns inform this one')
    .option('--user <user>', 'select only tools this user may use')
    .option('--role <role>', 'select only tools this role may use')
    .addOption(
      new Option('--format <format>', 'print the selected tools as definitions')
        .choices(['human', 'json', 'openai', 'anthropic', 'mcp', 'tool-reference', 'tool-search-output'])
        .default('human'),
    )
    .option('--call-id <id>', 'tool_use_id / call_id for --format tool-reference / tool-search-output')
    .option('--explain [tools...]', 'say why the list is empty, and why each named tool is not in it')
    .action(lazy('select', 'selectCommand'));

  program
    .command('eval')
    .argument('[cases...]', 'JSONL files of labelled queries: {"query", "relevant": [ids]} per line')
    .description(
      "measure selection quality (R@1, R@5, R@10, P@1, NDCG@10, MRR) on labelled queries and the contracts' examples",
    )
    .option('-k, --top <n>', 'ranking depth', '10')
    .option('--user <user>', 'evaluate as this user (tools they may not use are never selected)')
    .option('--role <role>', 'evaluate as this role')
    .option('--no-examples', "do not count the contracts' routing examples as labelled queries")
    .option(
      '--compare <ref>',
      'a git ref, or a result saved with --json: list every query whose first tool or R@5 changed',
    )
    .option('--fail-on-regression', 'with --compare: exit 1 when a query got worse')
    .option(
      '--min <metric=x>',
      'exit 1 when a metric is below x, e.g. ndcg@10=0.8 (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .addOption(
      new Option('--ranker <name>', 'toolbox, or bm25-baseline (plain BM25 over names, descriptions and parameters)')
        .choices(['toolbox', 'bm25-baseline'])
        .default('toolbox'),
    )
    .option('--report <file>', 'also write a self-contained HTML report (misses and why, confusable tools, curves)')
    .option('--force', 'with --report: overwrite a file that is not an earlier toolbox report')
    .action(lazy('eval', 'evalCommand'));

  program
    .command('deps')
    .argument('[ids...]', 'tool ids (default: all)')
    .description("check each tool's runtime dependencies")
    .option('--install', 'create an isolated environment per tool and install what is declared')
    .option('--allow-local', "with --install: build local folders/sdists (runs the project's own build code)")
    .action(lazy('deps', 'depsCommand'));

  program
    .command('doctor')
    .description('check this machine and registry: runtimes, sandbox, health, state')
    .option('--state <url>', 'also check this shared state store (default: $TOOLBOX_STATE_URL or your config)')
    .action(lazy('doctor', 'doctorCommand'));

  program
    .command('stats')
    .description("per-tool call statistics from .toolbox/calls.jsonl (or a deployment's shared state)")
    .option('--state <url>', 'read the calls and breakers of every process sharing this store (redis://host:port/db)')
    .option('--report <file>', 'also write a self-contained HTML report (calls over time, latency, breakers)')
    .option('--force', 'with --report: overwrite a file that is not an earlier toolbox report')
    .action(lazy('stats', 'statsCommand'));

  program
    .command('serve')
    .description('serve the registry as an MCP server (stdio, or Streamable HTTP)')
    .option('--http <port>', 'serve Streamable HTTP on this port instead of stdio')
    .option('--host <host>', 'address to bind with --http', '127.0.0.1')
    .option(
      '--token-env <name>',
      'with --http: the bearer token is the value of this env var (default: a token kept in your state folder)',
    )
    .option('--no-auth', 'with --http: answer every client without a token (every local user could run your tools)')
    .option(
      '--allow-other-users',
      'with --http: also answer local clients run by other users (they still need the token)',
    )
    .addOption(
      new Option('--expose <mode>', 'search: a small fixed tool set; all: every tool')
        .choices(['search', 'all'])
        .default('search'),
    )
    .option('--user <user>', 'caller identity for permissions')
    .option('--role <role>', 'caller role for permissions')
    .option('--locked', 'refuse tools that differ from toolbox.lock')
    .option('--state <url>', 'share breaker, call log, limits and sessions with other replicas (redis://host:port/db)')
    .option(
      '--drain <duration>',
      'with --http: on SIGTERM, let calls in flight finish for up to this long (default 30s)',
    )
    .option(
      '--client-rate <rate>',
      'with --http: requests per client host and token, e.g. 600/min (across replicas with --state)',
    )
    .option('--global-rate <rate>', 'with --http: requests in total, e.g. 6000/min (across replicas with --state)')
    .option('--global-in-flight <n>', 'with --http: requests in flight in total (across replicas with --state)')
    .option('--trust-proxy', "with --http: a client's address is the last X-Forwarded-For entry (behind a balancer)")
    .option('--page-size <n>', 'tools per page of tools/list (default 100)')
    .option(
      '--allow-unsandboxed',
      "with --http on a non-loopback address: start even when the sandbox tier is 'none' (tools unconfined)",
    )
    .addOption(
      new Option('--log-format <format>', 'with --http: json: one JSON line per request and message on stderr')
        .choices(['text', 'json'])
        .default('text'),
    )
    .option('--sampling-requests <n>', 'sampling requests a tool may send the client per call (default 5; 0: none)')
    .option('--sampling-max-tokens <n>', "maxTokens of a tool's sampling request is capped at this (default 1024)")
    .addOption(
      new Option(
        '--sampling-context <ctx>',
        "widest includeContext a tool's sampling request keeps (default none)",
      ).choices(['none', 'thisServer', 'allServers']),
    )
    .action(lazy('serve', 'serveCommand'));

  program
    .command('daemon')
    .argument('<action>', 'start | stop | status | restart')
    .description('a resident per-project process that answers `select` and `run` faster (opt-in)')
    .option('--idle <duration>', 'start/restart: stop after this long without a request (default 10m)')
    .action(lazy('daemon', 'daemonCommand'));

  const imp = program.command('import').description('bring tools from elsewhere into the registry');
  imp
    .command('mcp')
    .argument('[command...]', 'command that starts a stdio MCP server (after --); `npx -y PKG` / `uvx PKG` install PKG')
    .description('write one contract per tool of an MCP server')
    .option('--url <url>', 'Streamable HTTP endpoint instead of a command')
    .option(
      '--header <h>',
      "header for --url, 'Name: value'; name secrets as ${ENV_VAR} (repeatable)",
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--oauth-client-id <id>', 'for --url behind OAuth: a client registered with its authorization server')
    .option('--oauth-client-secret-env <name>', "for --url behind OAuth: that client's secret, from $NAME")
    .option(
      '--oauth-client-metadata-url <url>',
      'for --url behind OAuth: the https URL of a client ID metadata document describing toolbox',
    )
    .option('--npm <pkg>', 'install an npm package (NAME[@VERSION]) into .toolbox/servers/ and import it')
    .option(
      '--pypi <pkg>',
      'install a PyPI package (NAME[==VERSION]) into a venv under .toolbox/servers/ and import it',
    )
    .option(
      '--from-config <file>',
      'import every server of a Claude Desktop, .vscode/mcp.json or .cursor/mcp.json file',
    )
    .option(
      '--allow-scripts',
      "let the package's install scripts run (npm lifecycle scripts, pip source builds): runs its code unsandboxed",
    )
    .option(
      '--protocol <revision>',
      "pin the server to one MCP revision, e.g. 2025-11-25 (written into each contract's loader_config.protocol)",
    )
    .option('--prefix <p>', 'id prefix for the imported tools')
    .option('--out <dir>', 'folder (inside the registry) for the contracts')
    .option('--force', 'overwrite contracts a person has edited')
    .option('--check', 'write nothing: report what changed on the server since toolbox.lock (exit 1 on changes)')
    .option('--network', "the server needs the network (written into each contract's sandbox)")
    .option(
      '--path <path>',
      'a host path the server needs, bound read-only (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .action(lazy('import-mcp', 'importMcpCommand'));

  program
    .command('completion')
    .argument('[shell]', 'bash, zsh or fish')
    .description('print a shell completion script (commands, flags, tool ids): source <(toolbox completion bash)')
    .option('--ids', "print the registry's tool ids, one per line (what the scripts call)")
    .option('--flags <id>', "print a tool's own flags (its schema's arguments), one per line (what the scripts call)")
    .action(lazy('completion', 'completionCommand'));

  // Every command's --help ends with the same exit-code table (from src/errors.ts).
  const withTable = (c: Command): void => {
    c.addHelpText('after', exitCodeTable());
    c.commands.forEach(withTable);
  };
  withTable(program);
  return program;
}

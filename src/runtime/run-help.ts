/**
 * `toolbox run --help` (no tool id): run's own usage. `run` hands every flag after the id to the
 * tool (so `run <id> --help` shows the tool's usage), which is why commander's help is off for it.
 */
export const RUN_HELP = `Usage: toolbox run <id> [--<param> <value> ...] [options]

Run a tool through the agent pipeline: validate the arguments against its schema, load it lazily,
run it in the sandbox, format the result.

Tool arguments:
  --<param> <value>    one per schema property (numbers, booleans and JSON parsed by the schema)
  --args <json>        all arguments as one JSON object
  --args-file <file>   the same from a file (- for stdin)

Options:
  --timeout <duration> wall-clock limit for this call (e.g. 500ms, 30s, 2m)
  --session <id>       session id recorded with the call
  --user <user>        caller identity for permissions
  --role <role>        caller role for permissions
  --state <url>        share the breaker and call log with other processes (redis://host:port/db)
  -h, --help           with an id: that tool's parameters; without: this text

Global options:
  --json               one JSON document on stdout; errors as one JSON object on stderr
  --registry <dir>     registry folder
  --config <file>      config file
  -v, --verbose        sandbox tier, timings, stack traces
  --no-color           no colour

Examples:
  toolbox run calculator --expression "2*(3+4)^2"
  toolbox run query_weather --help
`;

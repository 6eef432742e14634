import type { RuleMeta } from './types.js';

/**
 * Checks that are not lint rules (they come from parsing and structural validation) but still
 * appear as rule ids in diagnostics; listed here so SARIF and docs can describe them.
 * Their severity is fixed: a contract that fails them cannot be loaded.
 */
export const STRUCTURAL_RULES: RuleMeta[] = [
  {
    id: 'yaml-syntax',
    severity: 'error',
    description: 'The file is not valid YAML (or expands too many aliases).',
    docs: 'Fix the YAML at the reported position.',
  },
  {
    id: 'encoding',
    severity: 'error',
    description: 'The file is not valid UTF-8.',
    docs: 'Re-save the file as UTF-8.',
  },
  {
    id: 'binary-file',
    severity: 'error',
    description: 'The file contains NUL bytes: not a text file.',
    docs: 'Remove binary files from the registry folder.',
  },
  {
    id: 'empty-file',
    severity: 'error',
    description: 'The contract file is empty.',
    docs: 'Fill it in (toolbox new <id>) or delete it.',
  },
  {
    id: 'file-too-large',
    severity: 'error',
    description: 'The contract file is larger than 1 MiB.',
    docs: 'A contract describes one tool; move data out of it.',
  },
  {
    id: 'unreadable',
    severity: 'error',
    description: 'The contract file could not be read.',
    docs: "Check the file's permissions.",
  },
  {
    id: 'unsafe-key',
    severity: 'error',
    description: 'A key such as __proto__ or constructor.',
    docs: 'These keys are refused to prevent prototype pollution; rename them.',
  },
  {
    id: 'contract-schema',
    severity: 'error',
    description: 'The contract does not match the contract schema (schemas/contract.schema.json).',
    docs: 'Fix the field named in the message; editors can check contracts with the published schema.',
  },
  {
    id: 'invalid-json-schema',
    severity: 'error',
    description: "The tool's `schema` or `output_schema` is not a valid JSON Schema.",
    docs: 'Fix the JSON Schema keyword at the reported position.',
  },
  {
    id: 'remote-ref',
    severity: 'error',
    description: 'A $ref points outside the contract (remote schemas are never fetched).',
    docs: 'Inline the referenced schema under $defs.',
  },
  {
    id: 'schema-too-deep',
    severity: 'error',
    description:
      "The tool's `schema` or `output_schema` is nested deeper than toolbox walks (MAX_SCHEMA_DEPTH levels).",
    docs: 'Flatten the schema, or name a repeated shape once under $defs and refer to it with $ref.',
  },
  {
    id: 'duplicate-id',
    severity: 'error',
    description: 'Two contracts have the same tool id.',
    docs: 'Tool ids must be unique across the registry.',
  },
  {
    id: 'sandbox-path',
    severity: 'error',
    description:
      'A `sandbox.paths` entry outside the project (after symlinks), the project folder itself, its .git or an .env* entry, in .toolbox/, or a Unix socket with the network closed.',
    docs: 'A contract may bind only non-secret paths inside its project; grant more per project and tool in your own ~/.config/toolbox/grants.yaml.',
  },
  {
    id: 'sandbox-network-private',
    severity: 'error',
    description:
      'A `sandbox.network` entry is a loopback, private, link-local, CGNAT or multicast address (in any spelling) or a name such as localhost.',
    docs: 'A contract cannot grant itself the host\'s or the network\'s own services; grant one address per project and tool in your own ~/.config/toolbox/grants.yaml (`network: ["127.0.0.1:6379"]`).',
  },
  {
    id: 'sandbox-network-broad',
    severity: 'warning',
    description: '`sandbox.network: true` on a contract whose description (or URL) names one service.',
    docs: 'List the host (`sandbox: { network: [api.example.com] }`): the egress proxy then refuses every other host.',
  },
  {
    id: 'project-path',
    severity: 'error',
    description:
      "A requirements file (`requires.python`) or a node_module tool's module outside the project (after symlinks), a credential file, or a requirements file not named *.txt / *.in.",
    docs: 'toolbox reads and loads only files inside the project: name a file there, not a link out of it.',
  },
  {
    id: 'sandbox-env',
    // An error when the variable is set where validate runs (run refuses the tool), else a warning.
    severity: 'error',
    description:
      'A tool asks for a credential (`AWS_*`, `TOOLBOX_*`, `*_TOKEN`, `*_SECRET*`, `*_KEY`, `*_PAT`, `*_SK`, `*PASSWORD*`, `DATABASE_URL`, a URL with a password, …) in `sandbox.env` or `requires.env` that you have not granted it, network open or not: its result leaves anyway.',
    docs: 'Grant it per project and tool in your own ~/.config/toolbox/grants.yaml (`env: [NAME]`), only if you trust the tool with it.',
  },
  {
    id: 'grants-outdated',
    severity: 'warning',
    description:
      'Your grants.yaml still grants tools under the old top-level `tools:` key (any project): no longer read.',
    docs: 'Move each entry under `projects: { <project real path>: { <tool id>: … } }`.',
  },
  {
    id: 'config-user-only',
    severity: 'warning',
    description:
      "The project's toolbox.config.yaml sets what only you may choose (`telemetry.endpoint`, `telemetry.capture_content`, `select.embeddings`, `state`): ignored.",
    docs: 'Remove it from the project; set it in your own ~/.config/toolbox/config.yaml (or OTEL_* / TOOLBOX_STATE_URL) if you want it.',
  },
  {
    id: 'routing',
    severity: 'warning',
    description: "One of the tool's `examples` does not select the tool.",
    docs: 'Make the description say what the example asks for, or fix the example.',
  },
];

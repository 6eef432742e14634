// The shape of toolbox.config.yaml (the `ToolboxConfig` interface in config.ts), as a small
// hand-written checker table. Deliberately not ajv: loading ajv costs ~70 ms on every command,
// and this runs on every command that reads the config.
import { closest } from './errors.js';
import { parseDuration } from './util/duration.js';

type Path = (string | number)[];

/** One problem: where (JSON path) and what is wrong, expected and given. */
export interface ConfigProblem {
  path: Path;
  message: string;
  hint?: string;
}

/** A mapping with fixed keys; `required` keys must be present. */
interface MapCheck {
  kind: 'map';
  keys: Record<string, Check>;
  required?: string[];
  example?: string;
}
/** A mapping with free-form keys (rule ids, user names, tool globs) and checked values. */
interface RecordCheck {
  kind: 'record';
  of: Check;
  example: string;
}
/** A list whose items are all checked. */
interface ListCheck {
  kind: 'list';
  of: Check;
  expected: string;
  example: string;
}
/** A scalar with a predicate. */
interface ValueCheck {
  kind: 'value';
  expected: string;
  test: (v: unknown) => boolean;
  example: string;
}
type Check = MapCheck | RecordCheck | ListCheck | ValueCheck;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const nonEmptyString = (expected: string, example: string): ValueCheck => ({
  kind: 'value',
  expected,
  example,
  test: (v) => isString(v) && v.trim() !== '',
});
const positiveInt = (example: string): ValueCheck => ({
  kind: 'value',
  expected: 'a positive integer',
  example,
  test: (v) => isNumber(v) && Number.isInteger(v) && v > 0,
});
const positiveNumber = (expected: string, example: string): ValueCheck => ({
  kind: 'value',
  expected,
  example,
  test: (v) => isNumber(v) && v > 0,
});
const roleList = (example: string): ListCheck => ({
  kind: 'list',
  of: nonEmptyString('a role name', example),
  expected: 'a list of role names',
  example,
});

export const SEVERITY_VALUES = ['error', 'warning', 'info', 'off'] as const;

const severity: ValueCheck = {
  kind: 'value',
  expected: `one of ${SEVERITY_VALUES.join(', ')}`,
  example: 'description-vague: warning',
  test: (v) => isString(v) && (SEVERITY_VALUES as readonly string[]).includes(v),
};

const timeout: ValueCheck = {
  kind: 'value',
  expected: "a positive number of seconds or a duration such as '500ms', '30s', '2m'",
  example: 'timeout: 30s',
  test: (v) => (isNumber(v) || isString(v)) && parseDuration(v) !== undefined,
};

const httpUrl: ValueCheck = {
  kind: 'value',
  expected: 'an http:// or https:// URL',
  example: 'url: http://127.0.0.1:8080/v1/embeddings',
  test: (v) => {
    if (!isString(v)) return false;
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
    } catch {
      return false;
    }
  },
};

const envVarName: ValueCheck = {
  kind: 'value',
  expected: 'the name of an environment variable (letters, digits, _; not starting with a digit)',
  example: 'api_key_env: EMB_KEY',
  test: (v) => isString(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v),
};

/** toolbox.config.yaml. Keep in step with `ToolboxConfig` in config.ts and the README. */
export const CONFIG_SHAPE: MapCheck = {
  kind: 'map',
  keys: {
    registry: nonEmptyString('a folder path', 'registry: tool_registry'),
    lint: {
      kind: 'map',
      example: 'lint: { rules: { description-vague: warning }, options: { description-too-short: { min: 30 } } }',
      keys: {
        // Rule ids and option names are checked by src/lint (it knows the rules); severities here.
        rules: { kind: 'record', of: severity, example: 'rules: { description-vague: warning }' },
        options: {
          kind: 'record',
          example: 'options: { description-too-short: { min: 30 } }',
          of: {
            kind: 'record',
            of: { kind: 'value', expected: 'an option value', example: 'min: 30', test: () => true },
            example: 'description-too-short: { min: 30 }',
          },
        },
        ignore: {
          kind: 'list',
          of: nonEmptyString('a glob', 'ignore: ["drafts/**"]'),
          expected: 'a list of globs relative to the registry folder',
          example: 'ignore: ["drafts/**", "legacy_*.yaml"]',
        },
        overrides: {
          kind: 'list',
          expected: 'a list of { files, rules } entries',
          example: 'overrides: [{ files: ["imported/**"], rules: { description-when-to-use: off } }]',
          of: {
            kind: 'map',
            required: ['files', 'rules'],
            example: '{ files: ["imported/**"], rules: { description-when-to-use: off } }',
            keys: {
              files: {
                kind: 'list',
                of: nonEmptyString('a glob', 'files: ["imported/**"]'),
                expected: 'a list of globs relative to the registry folder',
                example: 'files: ["imported/**"]',
              },
              rules: { kind: 'record', of: severity, example: 'rules: { description-vague: warning }' },
            },
          },
        },
      },
    },
    runtime: {
      kind: 'map',
      example: 'runtime: { cache_size: 32, timeout: 30s }',
      keys: {
        cache_size: positiveInt('cache_size: 32'),
        pool_size: positiveInt('pool_size: 4'),
        timeout,
        breaker: {
          kind: 'map',
          example: 'breaker: { failures: 5, window: 60, cooldown: 30 }',
          keys: {
            failures: positiveInt('failures: 5'),
            window: positiveNumber('a positive number of seconds', 'window: 60'),
            cooldown: positiveNumber('a positive number of seconds', 'cooldown: 30'),
          },
        },
        max_result_tokens: positiveInt('max_result_tokens: 20000'),
      },
    },
    select: {
      kind: 'map',
      example: 'select: { top: 5 }',
      keys: {
        top: positiveInt('top: 5'),
        always: {
          kind: 'value',
          expected: 'a list of tool ids',
          example: 'always: [general_search]',
          test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0),
        },
        embeddings: {
          kind: 'map',
          required: ['url'],
          example: 'embeddings: { url: http://127.0.0.1:8080/v1/embeddings, model: bge-m3 }',
          keys: {
            url: httpUrl,
            model: nonEmptyString('a model name', 'model: bge-m3'),
            api_key_env: envVarName,
            weight: {
              kind: 'value',
              expected: 'a number ≥ 0',
              example: 'weight: 1',
              test: (v) => isNumber(v) && v >= 0,
            },
          },
        },
      },
    },
    permissions: {
      kind: 'map',
      example: 'permissions: { default_role: assistant, users: { alice: [admin] } }',
      keys: {
        users: { kind: 'record', of: roleList('alice: [admin]'), example: 'users: { alice: [admin] }' },
        default_role: nonEmptyString('a role name', 'default_role: assistant'),
        tools: { kind: 'record', of: roleList('"send_*": [admin]'), example: 'tools: { "send_*": [admin] }' },
      },
    },
    user: nonEmptyString('a user name', 'user: alice'),
    role: nonEmptyString('a role name', 'role: assistant'),
    telemetry: {
      kind: 'map',
      example: 'telemetry: { endpoint: http://127.0.0.1:4318 }',
      keys: {
        endpoint: httpUrl,
        capture_content: {
          kind: 'value',
          expected: 'true or false',
          example: 'capture_content: false',
          test: (v) => typeof v === 'boolean',
        },
        service_name: nonEmptyString('a service name', 'service_name: toolbox'),
      },
    },
    locked: { kind: 'value', expected: 'true or false', example: 'locked: true', test: (v) => typeof v === 'boolean' },
    // Only the user's own config.yaml sets it (policy/user-settings.ts); a project's is ignored, and said so.
    state: nonEmptyString('a redis:// or rediss:// URL', 'state: redis://127.0.0.1:6379/0'),
  },
};

/** How a YAML value reads to a person: "the string 'lots'", "the number -5", "a list". */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'an empty value';
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (Array.isArray(v)) return v.length ? `a list of ${v.length}` : 'an empty list';
  if (typeof v === 'object') return 'a mapping';
  return String(v);
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function pathString(path: Path): string {
  return path
    .map((s, i) =>
      typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][\w-]*$/.test(s) ? (i ? `.${s}` : s) : `[${JSON.stringify(s)}]`,
    )
    .join('');
}

function expectedOf(c: Check): string {
  switch (c.kind) {
    case 'map':
      return `a mapping with keys ${Object.keys(c.keys).join(', ')}`;
    case 'record':
      return 'a mapping';
    case 'list':
      return c.expected;
    case 'value':
      return c.expected;
  }
}

function check(c: Check, v: unknown, path: Path, out: ConfigProblem[]): void {
  const here = pathString(path);
  const wrong = (): void => {
    const ex = c.example;
    out.push({
      path,
      message: `${here}: expected ${expectedOf(c)}, got ${describeValue(v)}`,
      hint: ex ? `For example: \`${ex}\`.` : undefined,
    });
  };
  switch (c.kind) {
    case 'value':
      if (!c.test(v)) wrong();
      return;
    case 'list':
      if (!Array.isArray(v)) {
        wrong();
        // A lone string where a list belongs (`calculator: admin`) must never be read as roles.
        if (isString(v) && out.length)
          out[out.length - 1]!.hint = `Write a list, even for one item: \`${lastKey(path)}: [${v}]\`.`;
        return;
      }
      v.forEach((item, i) => check(c.of, item, [...path, i], out));
      return;
    case 'record':
      if (!isMapping(v)) return wrong();
      for (const [k, item] of Object.entries(v)) check(c.of, item, [...path, k], out);
      return;
    case 'map': {
      if (!isMapping(v)) return wrong();
      const known = Object.keys(c.keys);
      for (const [k, item] of Object.entries(v)) {
        const sub = c.keys[k];
        if (!sub) {
          const near = closest(k, known, 1);
          const where = path.length ? ` in ${here}` : '';
          out.push({
            path: [...path, k],
            message: `unknown key '${k}'${where}.${near.length ? ` Did you mean '${near[0]}'?` : ''}`,
            hint: `Known keys${where}: ${known.join(', ')}.`,
          });
          continue;
        }
        // An empty section (`runtime:` with everything commented out) means "not set".
        if (item === null && sub.kind !== 'value' && sub.kind !== 'list') continue;
        check(sub, item, [...path, k], out);
      }
      for (const r of c.required ?? []) {
        if (v[r] === undefined) {
          out.push({
            path,
            message: `${here}: missing required key '${r}' (${expectedOf(c.keys[r]!)})`,
            hint: `For example: \`${c.keys[r]!.example ?? r}\`.`,
          });
        }
      }
      return;
    }
  }
}

function lastKey(path: Path): string {
  const k = path[path.length - 1];
  return typeof k === 'string' && /^[A-Za-z_][\w-]*$/.test(k) ? k : JSON.stringify(String(k));
}

/** Every problem of a parsed toolbox.config.yaml (the top level must already be a mapping). */
export function checkConfig(value: Record<string, unknown>): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  check(CONFIG_SHAPE, value, [], out);
  return out;
}

/** Drop empty sections (`runtime:` with no value) so that callers see them as absent. */
export function dropEmptySections(value: Record<string, unknown>, shape: MapCheck = CONFIG_SHAPE): void {
  for (const [k, sub] of Object.entries(shape.keys)) {
    if (!(k in value)) continue;
    const v = value[k];
    if (v === null && sub.kind !== 'value' && sub.kind !== 'list') delete value[k];
    else if (sub.kind === 'map' && isMapping(v)) dropEmptySections(v, sub);
  }
}

/**
 * Problems of one section of the config shape (`['telemetry']`, `['select', 'embeddings']`) given
 * elsewhere: the user's own config.yaml takes the sections only the user may set.
 */
export function checkConfigPart(path: string[], value: unknown): ConfigProblem[] {
  let c: Check = CONFIG_SHAPE;
  for (const k of path) {
    if (c.kind !== 'map' || !c.keys[k]) throw new Error(`no config section ${path.join('.')}`);
    c = c.keys[k]!;
  }
  const out: ConfigProblem[] = [];
  check(c, value, path, out);
  return out;
}

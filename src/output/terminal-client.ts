import type { LogLevel, ToolClient } from '../loaders/types.js';
import type { IO } from '../io.js';
import { inert, rawSink } from './inert.js';

type Prop = {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const: string; title?: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title?: string }[] };
};

/**
 * The person at the terminal as a running tool's caller (`toolbox run` on a TTY): log and progress
 * lines go to stderr, elicitation questions are asked with @inquirer/prompts on stderr (stdout
 * stays the result), and sampling is refused: there is no LLM on this side.
 */
export function terminalClient(io: IO, beforeOutput: () => void = () => undefined): ToolClient {
  const line = (s: string) => {
    beforeOutput();
    io.stderr.write(s + '\n');
  };
  return {
    log: (m: { level: LogLevel; data: unknown }) =>
      line(`${m.level}: ${typeof m.data === 'string' ? m.data : JSON.stringify(m.data)}`),
    // An MCP server behind OAuth wants the person to authorize toolbox: the browser comes back to toolbox.
    openUrl: (url: string, why: string) => line(`To ${why}, open this link in a browser:\n  ${url}`),
    progress: (p) =>
      line(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''} ${p.message ?? ''}`.trimEnd()),
    request: async (method, params) => {
      if (method === 'roots/list')
        throw new Error('`toolbox run` has no roots to offer: pass paths as arguments instead.');
      if (method === 'sampling/createMessage') {
        throw new Error(
          '`toolbox run` cannot answer sampling/createMessage: there is no LLM on this side. ' +
            'Call the tool through `toolbox serve` from an MCP client that supports sampling.',
        );
      }
      return ask(
        io,
        params as { message?: string; requestedSchema?: { properties?: Record<string, Prop>; required?: string[] } },
      );
    },
  };
}

/** Ask each field of an elicitation's requestedSchema; the answer is MCP's ElicitResult. */
async function ask(
  io: IO,
  params: { message?: string; requestedSchema?: { properties?: Record<string, Prop>; required?: string[] } },
): Promise<{ action: 'accept'; content: Record<string, unknown> }> {
  const { input, number, confirm, select, checkbox } = await import('@inquirer/prompts');
  // The prompts draw with cursor controls on the stream itself: every text of the question is made inert first.
  const context = { output: rawSink(io.stderr) as NodeJS.WritableStream, ...(io.signal ? { signal: io.signal } : {}) };
  if (params.message) io.stderr.write(`${params.message}\n`);
  const required = new Set(params.requestedSchema?.required ?? []);
  const content: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params.requestedSchema?.properties ?? {})) {
    const message = inert(p.title ?? p.description ?? name);
    const choicesOf = (values: unknown[], names?: string[]) =>
      values.map((v, i) => ({ value: String(v), name: inert(names?.[i] ?? String(v)) }));
    if (p.type === 'array') {
      const opts =
        p.items?.anyOf?.map((o) => ({ value: o.const, name: inert(o.title ?? o.const) })) ??
        choicesOf(p.items?.enum ?? []);
      content[name] = await checkbox({ message, choices: opts }, context);
    } else if (p.oneOf || p.enum) {
      const opts =
        p.oneOf?.map((o) => ({ value: o.const, name: inert(o.title ?? o.const) })) ?? choicesOf(p.enum!, p.enumNames);
      content[name] = await select({ message, choices: opts, default: p.default as string | undefined }, context);
    } else if (p.type === 'boolean') {
      content[name] = await confirm({ message, default: p.default as boolean | undefined }, context);
    } else if (p.type === 'number' || p.type === 'integer') {
      const v = await number(
        {
          message,
          default: p.default as number | undefined,
          required: required.has(name),
          step: p.type === 'integer' ? 1 : 'any',
        },
        context,
      );
      if (v !== undefined) content[name] = v;
    } else {
      const v = await input(
        // What the user sees is what they accept: a default with control sequences is shown, and kept, inert.
        {
          message,
          default: typeof p.default === 'string' ? inert(p.default) : undefined,
          required: required.has(name),
        },
        context,
      );
      if (v !== '' || required.has(name)) content[name] = v;
    }
  }
  return { action: 'accept', content };
}

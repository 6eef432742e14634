// A contract as an MCP tool definition, and the tool-name rules of each definition format.
import { describe, expect, it } from 'vitest';
import { displayTitle, mcpOutputSchema, mcpToolDefinition } from '../../src/contract/mcp-tool.js';
import { formatsRefusing, portableName } from '../../src/contract/provider-names.js';
import type { ToolContract } from '../../src/contract/types.js';

const base = {
  id: 'fx',
  description: 'Convert money.',
  loader: 'command',
  loader_config: { argv: ['echo'] },
} as unknown as ToolContract;
const c = (extra: Record<string, unknown>) => ({ ...base, ...extra }) as ToolContract;

describe('mcpToolDefinition', () => {
  it('the id is the name; input schema always an object; only what the contract has', () => {
    expect(mcpToolDefinition(base)).toEqual({
      name: 'fx',
      description: 'Convert money.',
      inputSchema: { type: 'object' },
    });
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    expect(mcpToolDefinition(c({ schema: { properties: schema.properties, required: ['a'] } })).inputSchema).toEqual(
      schema,
    );
  });

  it('title, output schema (objects only), annotations and icons, copied', () => {
    const annotations = { readOnlyHint: true };
    const icons = [{ src: 'data:image/png;base64,AA==', mimeType: 'image/png' }];
    const out = { type: 'object', properties: { r: { type: 'number' } } };
    const d = mcpToolDefinition(c({ title: 'FX', output_schema: out, annotations, icons }));
    expect(d).toEqual({
      name: 'fx',
      title: 'FX',
      description: 'Convert money.',
      inputSchema: { type: 'object' },
      outputSchema: out,
      annotations,
      icons,
    });
    expect(d.annotations).not.toBe(annotations);
    expect(d.icons![0]).not.toBe(icons[0]);
    const bare = mcpToolDefinition(c({ annotations: {}, icons: [], output_schema: { type: 'string' } }));
    expect(Object.keys(bare)).toEqual(['name', 'description', 'inputSchema']);
  });

  it('output schema only when it is an object schema', () => {
    expect(mcpOutputSchema(c({ output_schema: { type: 'array' } }))).toBeUndefined();
    expect(mcpOutputSchema(base)).toBeUndefined();
    expect(mcpOutputSchema(c({ output_schema: { type: 'object' } }))).toEqual({ type: 'object' });
  });

  it('display title: the title, else a name that says more than the id', () => {
    expect(displayTitle(c({ title: 'T', name: 'N' }))).toBe('T');
    expect(displayTitle(c({ name: 'Convert' }))).toBe('Convert');
    expect(displayTitle(c({ name: 'fx' }))).toBeUndefined();
    expect(displayTitle(base)).toBeUndefined();
  });
});

describe('tool names per format', () => {
  it.each([
    ['send_mail-2', []],
    ['send-mail.v2', ['openai', 'anthropic']],
    ['a'.repeat(64), []],
    ['a'.repeat(65), ['openai', 'anthropic']],
    ['a'.repeat(129), ['openai', 'anthropic', 'mcp']],
    ['天气', ['openai', 'anthropic', 'mcp']],
  ])('%s is refused by %j', (id, refused) => {
    expect(formatsRefusing(id)).toEqual(refused);
  });
  it('a portable name: every other character as _, at most 64', () => {
    expect(portableName('send-mail.v2')).toBe('send-mail_v2');
    expect(portableName('天气 x')).toBe('___x');
    expect(portableName('b'.repeat(70))).toHaveLength(64);
  });
});

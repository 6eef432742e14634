/**
 * What each tool-definition format accepts as a tool name. OpenAI (function.name) and Anthropic
 * (tools[].name) both require `^[a-zA-Z0-9_-]{1,64}$` and reject the request otherwise; MCP
 * (2025-11-25) says names SHOULD be 1–128 characters of letters, digits, `_`, `-` and `.`.
 * Contract ids allow `.` (and up to 64 characters), so an id like `send-mail.v2` is fine for
 * `run` and MCP but cannot be sent to OpenAI or Anthropic as it is.
 */
export const NAME_RULES = {
  openai: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, allowed: 'letters, digits, _ and -, at most 64 characters' },
  anthropic: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, allowed: 'letters, digits, _ and -, at most 64 characters' },
  mcp: { pattern: /^[a-zA-Z0-9_.-]{1,128}$/, allowed: 'letters, digits, _, - and ., at most 128 characters' },
} as const;

export type NamedFormat = keyof typeof NAME_RULES;

/** The formats whose tool names cannot carry `id`. */
export function formatsRefusing(id: string): NamedFormat[] {
  return (Object.keys(NAME_RULES) as NamedFormat[]).filter((f) => !NAME_RULES[f].pattern.test(id));
}

/** A name every format accepts, for the hint: `send-mail.v2` → `send-mail_v2`. */
export function portableName(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

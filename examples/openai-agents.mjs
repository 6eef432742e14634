// toolbox + the OpenAI Agents SDK (`@openai/agents`).
//
// toolbox selects the tools that fit the user's message; each becomes an Agents SDK function
// `tool()` whose `execute` runs the call through toolbox (validation, permissions, sandbox, limits,
// call log). `run()` drives the agent loop until the agent has a final answer.
//
//   cd your-project
//   OPENAI_API_KEY=sk-... node node_modules/agent-toolbox/examples/openai-agents.mjs "What is 17 * 23?"
//
// OPENAI_MODEL picks the model, OPENAI_BASE_URL another server. The SDK sends traces to OpenAI
// unless OPENAI_AGENTS_DISABLE_TRACING=1.
import { Agent, run, tool } from '@openai/agents';
import { pathToFileURL } from 'node:url';
import { Runtime, resolveProject, selectExecutableTools } from 'agent-toolbox';

export async function ask(question, { cwd = process.cwd(), model = process.env.OPENAI_MODEL ?? 'gpt-5.4' } = {}) {
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    const found = await selectExecutableTools(rt, question);
    const agent = new Agent({
      name: 'Assistant',
      instructions: 'Answer the user. Use a tool whenever it can compute or look up the answer.',
      model,
      tools: found.map((t) =>
        tool({
          name: t.name,
          description: t.description,
          parameters: t.inputSchema,
          // strict: false: contract schemas are plain JSON Schema; toolbox validates every call. (In
          // TypeScript, `parameters: t.inputSchema as any`: the SDK types a non-strict schema as
          // `additionalProperties: true`.)
          strict: false,
          execute: (input, _context, details) => t.execute(input, { toolCallId: details?.toolCall?.callId }),
        }),
      ),
    });
    const result = await run(agent, question, { maxTurns: 10 });
    return result.finalOutput;
  } finally {
    await rt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'What is 17 * 23?'));
}

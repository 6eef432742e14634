// toolbox + the Vercel AI SDK (`ai` with `@ai-sdk/openai`; any AI SDK provider works the same way).
//
// toolbox selects the tools that fit the user's message; each becomes an AI SDK `tool()` whose
// `execute` runs the call through toolbox (validation, permissions, sandbox, limits, call log).
// generateText runs the loop: model → tool calls → results → model, until it answers in words.
//
//   cd your-project
//   OPENAI_API_KEY=sk-... node node_modules/agent-toolbox/examples/vercel-ai.mjs "What is 17 * 23?"
//
// OPENAI_MODEL picks the model, OPENAI_BASE_URL another OpenAI-compatible server.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { openai } from '@ai-sdk/openai'; // reads OPENAI_API_KEY and OPENAI_BASE_URL
import { pathToFileURL } from 'node:url';
import { Runtime, resolveProject, selectExecutableTools } from 'agent-toolbox';

export async function ask(question, { cwd = process.cwd(), model = process.env.OPENAI_MODEL ?? 'gpt-5.4' } = {}) {
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    // The selected tools, each { name, description, inputSchema (JSON Schema), execute }.
    const found = await selectExecutableTools(rt, question);
    const tools = Object.fromEntries(
      found.map((t) => [
        t.name,
        tool({
          description: t.description,
          inputSchema: jsonSchema(t.inputSchema),
          // A failed call resolves with an "Error [code]: ..." text the model can act on.
          execute: (input, { toolCallId, abortSignal }) => t.execute(input, { toolCallId, signal: abortSignal }),
        }),
      ]),
    );
    const { text } = await generateText({
      model: openai(model), // the Responses API; openai.chat(model) for Chat Completions
      prompt: question,
      tools,
      stopWhen: stepCountIs(10), // at most 10 model turns
    });
    return text;
  } finally {
    await rt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'What is 17 * 23?'));
}

// toolbox + the OpenAI Responses API with client-side tool search (the `openai` package).
//
// The model starts with a single tool, `tool_search` (execution: "client"). When it needs a tool it
// searches; toolbox's selector answers with the definitions of the tools that fit (a
// `tool_search_output` item), and from then on the model can call them. Each call runs through
// toolbox (validation, permissions, sandbox, limits, call log). However large the registry, the
// prompt holds only the search tool and the tools found.
//
//   cd your-project
//   OPENAI_API_KEY=sk-... node node_modules/agent-toolbox/examples/openai-responses-tool-search.mjs "Convert 26.2 miles to km"
//
// Tool search needs a model that supports it (gpt-5.4 or later); OPENAI_MODEL picks the model,
// OPENAI_BASE_URL another server.
import OpenAI from 'openai';
import { pathToFileURL } from 'node:url';
import { Runtime, resolveProject, toolSearchTool, answerToolSearch, runToolCall } from 'agent-toolbox';

export async function ask(question, { cwd = process.cwd(), model = process.env.OPENAI_MODEL ?? 'gpt-5.4' } = {}) {
  const client = new OpenAI(); // reads OPENAI_API_KEY and OPENAI_BASE_URL
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    const tools = [toolSearchTool('openai-responses')]; // { type: 'tool_search', execution: 'client', ... }
    const input = [{ role: 'user', content: question }];
    for (let turn = 0; turn < 10; turn++) {
      const response = await client.responses.create({ model, input, tools });
      input.push(...response.output); // the model's items stay in the conversation
      const calls = response.output.filter((i) => i.type === 'tool_search_call' || i.type === 'function_call');
      if (!calls.length) return response.output_text;
      for (const item of calls) {
        // A search: toolbox selects tools for the model's query and answers with their definitions.
        // A function call: the tool runs in toolbox's sandbox; a failure is answered with an
        // "Error [code]: ..." text the model can act on.
        input.push(item.type === 'tool_search_call' ? await answerToolSearch(rt, item) : await runToolCall(rt, item));
      }
    }
    throw new Error('no answer after 10 turns');
  } finally {
    await rt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'How many kilometres is 26.2 miles?'));
}

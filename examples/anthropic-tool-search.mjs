// toolbox + the Anthropic Messages API with deferred tools and tool search (`@anthropic-ai/sdk`).
//
// Every tool of the registry is declared with `defer_loading: true`: the API keeps them out of the
// prompt. The model sees one ordinary tool, `search_tools`; toolbox's selector answers each search
// with `tool_reference` blocks, which the API expands into those tools' definitions, and the model
// calls them. Each call runs through toolbox (validation, permissions, sandbox, limits, call log).
//
//   cd your-project
//   ANTHROPIC_API_KEY=sk-ant-... node node_modules/agent-toolbox/examples/anthropic-tool-search.mjs "Convert 26.2 miles to km"
//
// ANTHROPIC_MODEL picks the model (one that supports tool search), ANTHROPIC_BASE_URL another server.
import Anthropic from '@anthropic-ai/sdk';
import { pathToFileURL } from 'node:url';
import {
  Runtime,
  resolveProject,
  toolSearchTool,
  deferredCatalog,
  answerToolSearch,
  runToolCall,
  SEARCH_TOOL_NAME,
} from 'agent-toolbox';

export async function ask(
  question,
  { cwd = process.cwd(), model = process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5' } = {},
) {
  const client = new Anthropic(); // reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    // The search tool, then the catalog: every tool this caller may use, with defer_loading: true.
    const tools = [toolSearchTool('anthropic'), ...deferredCatalog(rt)];
    const messages = [{ role: 'user', content: question }];
    for (let turn = 0; turn < 10; turn++) {
      const message = await client.messages.create({ model, max_tokens: 1024, messages, tools });
      messages.push({ role: 'assistant', content: message.content });
      const uses = message.content.filter((b) => b.type === 'tool_use');
      if (message.stop_reason !== 'tool_use' || !uses.length)
        return message.content
          .filter((b) => b.type === 'text')
          .map((b) => b.text)
          .join('');
      const results = [];
      for (const use of uses) {
        // The search: a tool_result of tool_reference blocks naming the tools toolbox selected.
        // A tool: run in toolbox's sandbox; a failure comes back with is_error: true and what to do.
        results.push(use.name === SEARCH_TOOL_NAME ? await answerToolSearch(rt, use) : await runToolCall(rt, use));
      }
      messages.push({ role: 'user', content: results });
    }
    throw new Error('no answer after 10 turns');
  } finally {
    await rt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'How many kilometres is 26.2 miles?'));
}

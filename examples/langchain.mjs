// toolbox + LangChain.js (`@langchain/openai` with `@langchain/core`; any chat model with bindTools
// works the same way).
//
// toolbox selects the tools that fit the user's message; each becomes a LangChain `tool()` whose
// function runs the call through toolbox (validation, permissions, sandbox, limits, call log). The
// loop: the model answers with tool calls, each tool answers with a ToolMessage, until the model
// answers in words.
//
//   cd your-project
//   OPENAI_API_KEY=sk-... node node_modules/agent-toolbox/examples/langchain.mjs "What is 17 * 23?"
//
// OPENAI_MODEL picks the model, OPENAI_BASE_URL another OpenAI-compatible server.
import { ChatOpenAI } from '@langchain/openai'; // reads OPENAI_API_KEY and OPENAI_BASE_URL
import { tool } from '@langchain/core/tools';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { pathToFileURL } from 'node:url';
import { Runtime, resolveProject, selectExecutableTools } from 'agent-toolbox';

export async function ask(question, { cwd = process.cwd(), model = process.env.OPENAI_MODEL ?? 'gpt-5.4' } = {}) {
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    const found = await selectExecutableTools(rt, question);
    const tools = found.map((t) =>
      tool((input, config) => t.execute(input, { signal: config?.signal, toolCallId: config?.toolCall?.id }), {
        name: t.name,
        description: t.description,
        schema: t.inputSchema, // LangChain takes the contract's JSON Schema as it is
      }),
    );
    const byName = new Map(tools.map((t) => [t.name, t]));
    const chat = new ChatOpenAI({ model });
    const llm = tools.length ? chat.bindTools(tools) : chat;
    const messages = [new HumanMessage(question)];
    for (let turn = 0; turn < 10; turn++) {
      const reply = await llm.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls?.length) return reply.text;
      for (const call of reply.tool_calls) {
        const t = byName.get(call.name);
        // Invoked with the whole tool call, a LangChain tool answers with its ToolMessage.
        messages.push(
          t
            ? await t.invoke(call)
            : new ToolMessage({ tool_call_id: call.id, content: `Error [unknown_tool]: no tool '${call.name}'.` }),
        );
      }
    }
    throw new Error('no answer after 10 turns');
  } finally {
    await rt.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'What is 17 * 23?'));
}

// toolbox + OpenAI Chat Completions (the `openai` package).
//
// The loop: toolbox selects the few tools that fit the user's message, the model sees only those,
// each tool call the model makes runs through toolbox (argument validation, permissions, the
// sandbox, limits, the call log: the same pipeline as `toolbox run`), and the results go back to the
// model until it answers in words.
//
//   cd your-project            # where toolbox.config.yaml / tool_registry/ are
//   OPENAI_API_KEY=sk-... node node_modules/agent-toolbox/examples/openai-chat.mjs "How many km is 26.2 miles?"
//
// OPENAI_BASE_URL points the SDK at any OpenAI-compatible server; OPENAI_MODEL picks the model.
import OpenAI from 'openai';
import { pathToFileURL } from 'node:url';
import { Runtime, resolveProject, selectDefinitions, runToolCall } from 'agent-toolbox';

export async function ask(question, { cwd = process.cwd(), model = process.env.OPENAI_MODEL ?? 'gpt-5.4' } = {}) {
  const client = new OpenAI(); // reads OPENAI_API_KEY and OPENAI_BASE_URL
  // longRunning: loaded tools (Python workers, MCP connections) stay up between the calls of the loop.
  const rt = new Runtime(resolveProject({ cwd }), { longRunning: true });
  try {
    // Only the tools that fit this message, as Chat Completions definitions; [] for small talk.
    const tools = await selectDefinitions(rt, question, 'openai');
    const messages = [{ role: 'user', content: question }];
    for (let turn = 0; turn < 10; turn++) {
      const completion = await client.chat.completions.create({
        model,
        messages,
        ...(tools.length ? { tools } : {}),
      });
      const message = completion.choices[0].message;
      messages.push(message);
      if (!message.tool_calls?.length) return message.content;
      // Each call runs in toolbox's sandbox; the answer is a { role: 'tool', tool_call_id, content }
      // message. A failed call (bad arguments, the tool's error, a timeout) is answered with an
      // "Error [code]: ..." text the model can act on, not thrown.
      for (const call of message.tool_calls) messages.push(await runToolCall(rt, call));
    }
    throw new Error('no answer after 10 turns');
  } finally {
    await rt.close(); // stops the workers
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await ask(process.argv.slice(2).join(' ') || 'How many kilometres is 26.2 miles?'));
}

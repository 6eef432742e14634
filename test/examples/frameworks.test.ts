// The framework examples (Vercel AI SDK, LangChain.js, OpenAI Agents SDK) with the real packages
// against recorded OpenAI responses: the framework's own loop calls the tool through toolbox's
// `execute`, the calculator really runs in the sandbox, and its result is what the framework sends
// back to the "model" in the next request.
import { describe, it } from 'vitest';
import { langchain, openaiAgents, play, vercelAi } from './scenarios.js';

describe.each([vercelAi, langchain, openaiAgents])('examples/$file', (s) => {
  it('offers the selected tools, runs the call through toolbox in the sandbox, returns the answer', () => play(s));
});

// examples/openai-responses-tool-search.mjs with the real `openai` SDK against recorded Responses API
// responses: the model's client-side tool_search is answered by toolbox's selector (a
// tool_search_output with the converter's definition), the function call it then makes runs in the
// sandbox, and its output is what the SDK sends back.
import { describe, it } from 'vitest';
import { openaiResponses, play } from './scenarios.js';

describe('examples/openai-responses-tool-search.mjs', () => {
  it('answers the tool search with the selector, runs the found tool in the sandbox, returns its output', () =>
    play(openaiResponses));
});

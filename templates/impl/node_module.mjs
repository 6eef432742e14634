// %%name%%: the implementation of the tool '%%id%%' (scaffolded by `toolbox new`).
//
// toolbox calls this export with one object, the arguments the contract's schema allows, and
// returns the result as JSON. Throw an Error to report a failure. Replace the body with your
// tool's logic, and keep the contract's schema in step with the parameters.
export async function %%function%%({ text }) {
  return {
    words: text.split(/\s+/).filter(Boolean).length,
    characters: [...text].length,
    lines: text === '' ? 0 : text.split(/\r?\n/).length - (text.endsWith('\n') ? 1 : 0),
  };
}

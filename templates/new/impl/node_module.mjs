// %%name%%: the implementation of the tool '%%id%%' (scaffolded by `toolbox new`).
//
// toolbox calls this export with one object, the arguments the contract's schema allows, and
// returns the result as JSON (an object, array, string or number). Throw an Error to report a
// failure. Keep the parameters in step with the contract's schema.
export async function %%function%%({ input }) {
  throw new Error('%%id%% is a stub: write its code in %%impl%%');
}

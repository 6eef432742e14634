/**
 * An environment (names → values), as process.env is. Used in public types instead of
 * NodeJS.ProcessEnv so the library's types compile in a project without @types/node.
 */
export type Env = Record<string, string | undefined>;

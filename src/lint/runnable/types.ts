import type { ToolContract } from '../../contract/types.js';
import type { PathSeg, Pos } from '../../contract/yaml-source.js';

/** One valid contract as the runnable checks see it. */
export interface RunnableTool {
  file: string;
  contract: ToolContract;
  locate(path: readonly PathSeg[]): Pos;
}

/** What a check found: which rule, where in the contract, what and how to fix it. */
export interface RunnableFinding {
  tool: RunnableTool;
  rule: RunnableRule;
  path: readonly PathSeg[];
  message: string;
  hint: string;
}

export type RunnableRule =
  'loader-network' | 'loader-env' | 'loader-secret-host' | 'loader-module' | 'loader-function' | 'loader-program';

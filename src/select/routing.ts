// PLACEHOLDER (being replaced by the selector's routing check): signature only.
import type { Diagnostic } from '../contract/diagnostic.js';
import type { Registry } from '../registry/registry.js';

/**
 * Routing check used by `toolbox validate`: every contract's `examples` are queries for the
 * selector; a tool whose own example does not rank it in the top `top` gets a warning naming the
 * tool that won instead (rule id 'routing').
 */
export async function checkRouting(_registry: Registry, _opts: { top: number } = { top: 3 }): Promise<Diagnostic[]> {
  return [];
}

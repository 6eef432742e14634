import type { Format, Formatter } from './types.js';
import { stylish } from './stylish.js';
import { json } from './json.js';
import { github } from './github.js';
import { sarif } from './sarif.js';

/** Every output format of `validate`; a format without a formatter fails type-checking. */
export const formatters: Record<Format, Formatter> = { human: stylish, json, github, sarif };

export { FORMATS, type Format, type Formatter, type FormatInput, type Style } from './types.js';

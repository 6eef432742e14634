import { poisonRule } from '../poison/rule.js';

/** Tool poisoning, class 'tool-steering' (src/lint/poison/classes.ts says what it covers). */
export const rule = poisonRule('tool-steering');

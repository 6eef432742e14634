import { poisonRule } from '../poison/rule.js';

/** Tool poisoning, class 'override' (src/lint/poison/classes.ts says what it covers). */
export const rule = poisonRule('override');

import { poisonRule } from '../poison/rule.js';

/** Tool poisoning, class 'secret-file' (src/lint/poison/classes.ts says what it covers). */
export const rule = poisonRule('secret-file');

import { poisonRule } from '../poison/rule.js';

/** Tool poisoning, class 'secret-env' (src/lint/poison/classes.ts says what it covers). */
export const rule = poisonRule('secret-env');

import { poisonRule } from '../poison/rule.js';

/** Tool poisoning, class 'concealment' (src/lint/poison/classes.ts says what it covers). */
export const rule = poisonRule('concealment');

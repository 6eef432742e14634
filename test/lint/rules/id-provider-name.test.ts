import { ruleTester } from '../tester.js';

ruleTester('id-provider-name', {
  valid: [{ id: 'send_mail' }, { id: 'send-mail_v2' }, { id: 'A'.repeat(64) }],
  invalid: [
    {
      contract: { id: 'send-mail.v2' },
      errors: [{ path: 'id', message: /tool name for OpenAI or Anthropic.*--format openai\|anthropic/ }],
    },
  ],
});

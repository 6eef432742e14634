// policy/credentials.ts, condition by condition: which variables count as credentials by name or by
// value, and which of a contract's asks need the user's grant (issue 34 item 6,
// `npm run mutate -- trust-policy`). The hostile end-to-end cases are in test/security/credentials.test.ts.
import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../src/contract/types.js';
import { credentialVar, envProblems } from '../../src/policy/credentials.js';
import type { UserGrants } from '../../src/policy/grants.js';

const none: UserGrants = { tools: {}, legacy: [] };
const contract = (c: Partial<ToolContract>) => ({ id: 't', ...c }) as ToolContract;

describe('credentialVar', () => {
  it('a URL with a password is a credential whatever the name; a name that is no credential with a plain value is not', () => {
    expect(credentialVar('BROKER_URL', 'amqp://app:pw@mq:5672')).toBe(true);
    expect(credentialVar('HTTPS_PROXY', 'http://user:tok@proxy:3128')).toBe(true);
    expect(credentialVar('BROKER_URL', 'amqp://mq:5672')).toBe(false);
    expect(credentialVar('HOME', '/root')).toBe(false);
    expect(credentialVar('HOME', undefined)).toBe(false);
    // A name that says credential is one with any value, or none.
    expect(credentialVar('GITHUB_TOKEN', undefined)).toBe(true);
    // The shell's working folder and token counts are never credentials, whatever they hold.
    expect(credentialVar('pwd', 'x://a:b@h')).toBe(false);
    expect(credentialVar('max_tokens', 'x://a:b@h')).toBe(false);
  });
});

describe('envProblems', () => {
  it('asks nothing of the grants when no credential is asked for', () => {
    let asked = 0;
    const grants = () => {
      asked++;
      return none;
    };
    expect(envProblems('/p', contract({ sandbox: { env: ['LANG'] } } as Partial<ToolContract>), grants, {})).toEqual(
      [],
    );
    expect(envProblems('/p', contract({}), grants, {})).toEqual([]);
    expect(asked).toBe(0);
  });

  it('names each ungranted credential at its place, set only when it has a value', () => {
    const c = contract({
      sandbox: { env: ['LANG', 'GITHUB_TOKEN'] },
      requires: { env: ['DATABASE_URL'] },
    } as Partial<ToolContract>);
    const env = { GITHUB_TOKEN: 'ghp_x', DATABASE_URL: '' };
    const ps = envProblems('/p', c, () => none, env);
    expect(ps.map((p) => [p.name, p.path.join('.'), p.set])).toEqual([
      ['GITHUB_TOKEN', 'sandbox.env.1', true],
      ['DATABASE_URL', 'requires.env.0', false],
    ]);
    expect(ps[0]?.message).toContain("tool 't' asks for GITHUB_TOKEN (sandbox.env), a credential");
    expect(ps[0]?.hint).toContain('env: [GITHUB_TOKEN, DATABASE_URL]');
    // The user's grant for this tool, or for every tool of the project, lifts it.
    const granted: UserGrants = { tools: { t: { paths: [], env: ['GITHUB_TOKEN'], network: [] } }, legacy: [] };
    expect(envProblems('/p', c, () => granted, env).map((p) => p.name)).toEqual(['DATABASE_URL']);
    const all: UserGrants = { tools: { '*': { paths: [], env: ['DATABASE_URL'], network: [] } }, legacy: [] };
    expect(envProblems('/p', c, () => all, env).map((p) => p.name)).toEqual(['GITHUB_TOKEN']);
  });
});

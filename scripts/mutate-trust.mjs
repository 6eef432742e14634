// The trust boundary's checks, for `npm run mutate -- trust-paths` (and the other trust-* parts):
// every containment, ownership and "does this file count" condition in src/policy, src/util,
// src/lock, src/state (and the sandbox's mask, which decides what of a shown folder is hidden) must be
// proven by a test that fails when that one condition is removed (issue 34 item 6).
// These parts run with the condition mutators only (TRUST_MUTATORS): a condition forced true or
// false, a comparison or logical operator flipped, a negation dropped, a method such as `startsWith`
// swapped, a guard's block emptied. Messages, tables and arithmetic are not what this pass measures.
const src = (...names) => names.map((f) => `src/${f}.ts`).join(',');
const tests = (...names) => names.map((f) => `test/${f}.test.ts`).join(',');

export const TRUST_PARTS = {
  // Is this path inside the project, a secret, toolbox's own state, a socket; the one project-file reader;
  // what of a shown folder the sandbox hides.
  'trust-paths': src(
    'util/binds',
    'util/paths',
    'util/secret-names',
    'util/project-file',
    'util/owned-dirs',
    'sandbox/mask',
  ),
  // What the user granted, where their own configuration lives, which secrets a tool may read.
  'trust-policy': src(
    'policy/grants',
    'policy/credentials',
    'policy/user-config',
    'policy/permissions',
    'util/user-dirs',
  ),
  // What the lock pins: a tool's files, its packages, what counts and what is refused.
  'trust-lock': src('lock/code', 'lock/tool-files', 'lock/enforce'),
  // What counts as drift: a field's change, a managed server's files, an upstream's tool list.
  'trust-drift': src('lock/diff', 'lock/server-files', 'lock/upstream'),
  // The state store's address (and its redaction), and the local state folder's ownership checks.
  'trust-state': src('state/url', 'util/state'),
};

// The fast, in-process tests of each part: Stryker runs the ones that cover a mutant for every mutant.
// The hostile end-to-end tests (test/security, seconds each) are left to the recheck of the survivors:
// `npm run mutate:recheck -- trust-paths -- test/security/binds.test.ts …` (TRUST_RECHECK below).
export const TRUST_TESTS = {
  'trust-paths': tests(
    'util/binds',
    'util/project-file',
    'util/project-file-layers',
    'util/project-file-noproc',
    'util/owned-dirs',
    'util/owned-dirs-checks',
    'sandbox/mask-checks',
    'security/nested-secrets',
  ),
  'trust-policy': tests(
    'policy/grants',
    'policy/user-config',
    'policy/permissions',
    'policy/credentials',
    'config',
    'security/credentials',
  ),
  'trust-lock': tests('lock/tool-files', 'lock/lock', 'security/locked-packages'),
  'trust-drift': tests('lock/lock', 'lock/mcp-drift'),
  'trust-state': tests('util/state', 'util/state-checks', 'state/url', 'state/url-checks'),
};

/** The hostile tests that may still kill what the fast tests let survive (each file runs per survivor). */
export const TRUST_RECHECK = {
  'trust-paths': tests('security/binds', 'security/project-files', 'security/files'),
  'trust-policy': tests('security/grants', 'security/config-registry'),
  'trust-lock': tests('security/locked', 'security/locked-too-large'),
  'trust-drift': tests('security/locked'),
  'trust-state': tests('security/state', 'security/state-url'),
};

/** Files of the trust folders no trust part measures, and why. */
export const TRUST_NOT_MUTATED = {
  'src/state/shared.ts':
    "the store's connection and health; nothing it returns is trusted (its callers re-verify what they read back)",
  'src/state/client.ts': 'loads the Redis client package; no check of its own',
  'src/policy/user-settings.ts': 'reads settings through policy/user-config.ts, whose checks are measured',
  'src/policy/session.ts': 'measured with selection (select-session part of scripts/mutate-select.mjs)',
  'src/lock/compute.ts': 'assembles the entry from lock/code.ts and lock/tool-files.ts, whose checks are measured',
  'src/lock/file.ts': 'reads toolbox.lock through util/project-file.ts, whose checks are measured',
  'src/lock/hash.ts': 'a digest of bytes; no condition',
  'src/lock/render.ts': 'text for people; no condition that decides what counts',
  'src/lock/types.ts': 'types only, erased at build: nothing runs',
  'src/lock/index.ts': 'the lock command; its checks live in the files measured',
};

/** Stryker's mutators a trust part runs with (every other one is excluded): conditions only. */
export const TRUST_MUTATORS = [
  'ConditionalExpression',
  'EqualityOperator',
  'LogicalOperator',
  'BooleanLiteral',
  'UnaryOperator',
  'MethodExpression',
  'OptionalChaining',
  'BlockStatement',
];

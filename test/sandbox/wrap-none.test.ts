// Tier none without setpriv and prlimit: the process toolbox starts is still a system program
// (a shell that execs the tool), never the tool's own file (util/host-process.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { runWith } from '../../src/sandbox/run.js';
import { wrapCommand } from '../../src/sandbox/wrap.js';

describe('tier none with no wrapper programs', () => {
  const input = {
    tier: 'none' as const,
    tools: {},
    command: '/bin/echo',
    args: ['a b', '$HOME'],
    readOnlyPaths: [],
    network: false,
    limits: DEFAULT_LIMITS,
    workDir: '/tmp',
  };

  it('starts /bin/sh, which execs the tool with exactly its arguments', async () => {
    const w = wrapCommand(input);
    expect([w.file, ...w.args]).toEqual(['/bin/sh', '-c', 'exec "$@"', 'sh', '/bin/echo', 'a b', '$HOME']);
    const r = await runWith(
      {
        command: '/bin/echo',
        args: ['a b', '$HOME'],
        env: {},
        readOnlyPaths: [],
        network: false,
        limits: DEFAULT_LIMITS,
      },
      'none',
      {},
    );
    expect([r.exitCode, r.stdout]).toEqual([0, 'a b $HOME\n']);
  });
});

// Entry of a long-lived process's reaper (started by the daemon: sandbox/reaper.ts). It waits for
// its stdin to close, which happens when the process that started it ends in any way (SIGKILL
// included), then kills every sandboxed process still carrying that process's owner tag: bwrap
// sets its parent-death signal only after its setup, so a sandbox caught starting would outlive a
// killed daemon. Arguments: <owner tag>.
import { killMarked, ownerNeedle } from './marked.js';

const tag = process.argv[2] ?? '';
if (!/^[0-9a-f]{16}$/.test(tag)) process.exit(2);
const needle = ownerNeedle(tag);

const reap = async () => {
  const killed = new Set<number>();
  // Again until a round finds nothing (at least three rounds: a process may be forking meanwhile).
  for (let round = 0; round < 50; round++) {
    if (killMarked(needle, killed) === 0 && round >= 2) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  process.exit(0);
};

process.stdin.on('data', () => {});
process.stdin.once('end', () => void reap());
process.stdin.once('error', () => void reap());

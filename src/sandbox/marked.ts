// Every process of a sandboxed call carries TOOLBOX_SANDBOX_ID=<marker> in its environment (the
// wrappers do; bwrap and unshare keep it out of the tool's own environment). That is how a call's
// leftovers are found (killTree), and how a long-lived process's reaper finds every call it started
// once it has died: markers are then `<owner>.<call>`, with one owner tag per process.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { processRuns } from '../util/proc.js';

let owner = '';

/** Prefix every later marker of this process with `tag` (a daemon with a reaper sets it once). */
export function setMarkerOwner(tag: string): void {
  owner = tag;
}

/** A fresh marker for one call. */
export const newMarker = (): string => `${owner ? `${owner}.` : ''}${randomBytes(12).toString('hex')}`;

/** What a marked process's environment holds: the exact marker, or every marker of an owner. */
export const markerNeedle = (marker: string): Buffer => Buffer.from(`TOOLBOX_SANDBOX_ID=${marker}\0`);
export const ownerNeedle = (tag: string): Buffer => Buffer.from(`TOOLBOX_SANDBOX_ID=${tag}.`);

/** Whether `pid` exists and is not a zombie (a zombie has released everything but its pid). */
export function isAlive(pid: number): boolean {
  return processRuns(pid);
}

/** SIGKILL every live process whose environment holds `needle`; how many were signalled. */
export function killMarked(needle: Buffer, killed: Set<number>): number {
  let n = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle) && isAlive(Number(name))) {
        process.kill(Number(name), 'SIGKILL');
        killed.add(Number(name));
        n++;
      }
    } catch {
      /* gone, or not ours */
    }
  }
  return n;
}

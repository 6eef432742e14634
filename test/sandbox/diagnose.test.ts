// Why the strong tiers fail, in the words of the option that fixes it. The masked-/proc case is also
// made for real (test/serve/operations.test.ts: a namespace with /proc/timer_list covered); these
// cases cover the kernel switches a test cannot flip on a shared machine.
import { describe, expect, it } from 'vitest';
import { diagnoseSandbox, procOverMounts, type SystemFacts } from '../../src/sandbox/diagnose.js';

const host: SystemFacts = { container: false, procOverMounts: [], seccomp: 0, maxUserNamespaces: 15000 };
const docker: SystemFacts = {
  container: true,
  procOverMounts: ['/proc/bus', '/proc/kcore', '/proc/keys', '/proc/timer_list'],
  seccomp: 2,
  maxUserNamespaces: 15000,
};
const codes = (c: { code: string }[]) => c.map((x) => x.code);

describe('diagnoseSandbox', () => {
  it('says "install bubblewrap" only when it is missing', () => {
    expect(codes(diagnoseSandbox({ bwrapInstalled: false, bwrap: 'not installed' }, host))).toEqual(['bwrap_missing']);
    const masked = diagnoseSandbox({ bwrapInstalled: true, bwrap: "Can't mount proc on /newroot/proc" }, docker);
    expect(codes(masked)).toEqual(['proc_masked']);
    expect(masked[0]!.fix).toContain('systempaths=unconfined');
    expect(masked.map((c) => c.fix).join(' ')).not.toMatch(/install bubblewrap/);
  });

  it("names Docker's seccomp filter and the masked /proc when user namespaces fail in a container", () => {
    const c = diagnoseSandbox(
      { bwrapInstalled: true, bwrap: 'No permissions to create new namespace', unshare: 'Operation not permitted' },
      docker,
    );
    expect(codes(c)).toEqual(['seccomp_filter', 'proc_masked']);
    expect(c[0]!.fix).toContain('seccomp=unconfined');
  });

  it('names the kernel switches that turn user namespaces off, and AppArmor', () => {
    const off = diagnoseSandbox(
      { bwrapInstalled: true, bwrap: 'setting up uid map: Permission denied', unshare: 'EPERM' },
      { ...host, maxUserNamespaces: 0, unprivilegedUsernsClone: 0 },
    );
    expect(codes(off)).toEqual(['no_user_namespaces', 'no_user_namespaces']);
    expect(off.map((x) => x.fix).join(' ')).toContain('user.max_user_namespaces');
    const aa = diagnoseSandbox(
      { bwrapInstalled: true, bwrap: 'setting up uid map', unshare: 'EPERM' },
      { ...docker, seccomp: 0, procOverMounts: [], apparmorRestrictsUserns: 1 },
    );
    expect(codes(aa)).toEqual(['apparmor_userns']);
    expect(aa[0]!.fix).toContain('apparmor=unconfined');
  });

  it('finds the mounts over /proc in mountinfo (binfmt_misc on its empty folder does not count)', () => {
    const info = [
      '22 1 0:21 / /proc rw,nosuid - proc proc rw',
      '23 22 0:5 /null /proc/kcore rw - devtmpfs udev rw',
      '24 22 0:40 / /proc/sys/fs/binfmt_misc rw - autofs systemd-1 rw',
      '25 1 0:22 / /sys rw - sysfs sysfs rw',
    ].join('\n');
    expect(procOverMounts(info)).toEqual(['/proc/kcore']);
  });
});

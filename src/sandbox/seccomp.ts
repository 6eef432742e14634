// A seccomp classic-BPF program built in plain JavaScript (no native addon), handed to bwrap on
// an fd with `--seccomp N`. Layout of struct seccomp_data: nr u32 @0, arch u32 @4, ip u64 @8,
// args[6] u64 @16 (we only ever need the low 32 bits, which come first on little-endian).

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

const AF_INET = 2;
const AF_INET6 = 10;
const AF_PACKET = 17;
/** CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET: no nested namespaces. */
const CLONE_NS_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

interface ArchTable {
  audit: number;
  x32: boolean;
  sys: Record<string, number>;
}

/** Syscalls refused with EPERM: kernel attack surface and ways out of the namespaces. */
const DENIED = [
  'ptrace',
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'unshare',
  'setns',
  'keyctl',
  'add_key',
  'request_key',
  'bpf',
  'perf_event_open',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'userfaultfd',
  'process_vm_readv',
  'process_vm_writev',
  'open_by_handle_at',
  'name_to_handle_at',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'personality',
  'acct',
  'swapon',
  'swapoff',
  'reboot',
  'open_tree',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
] as const;

const ARCHES: Record<string, ArchTable> = {
  x64: {
    audit: 0xc000003e,
    x32: true,
    sys: {
      ptrace: 101,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
      chroot: 161,
      unshare: 272,
      setns: 308,
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      bpf: 321,
      perf_event_open: 298,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      userfaultfd: 323,
      process_vm_readv: 310,
      process_vm_writev: 311,
      open_by_handle_at: 304,
      name_to_handle_at: 303,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      personality: 135,
      acct: 163,
      swapon: 167,
      swapoff: 168,
      reboot: 169,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      socket: 41,
      clone: 56,
      clone3: 435,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    x32: false,
    sys: {
      ptrace: 117,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
      chroot: 51,
      unshare: 97,
      setns: 268,
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      bpf: 280,
      perf_event_open: 241,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      userfaultfd: 282,
      process_vm_readv: 270,
      process_vm_writev: 271,
      open_by_handle_at: 265,
      name_to_handle_at: 264,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      personality: 92,
      acct: 89,
      swapon: 224,
      swapoff: 225,
      reboot: 142,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      socket: 198,
      clone: 220,
      clone3: 435,
    },
  },
};

/** Whether a filter exists for this CPU architecture. */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch in ARCHES;
}

type Ins = { code: number; jt: number | string; jf: number | string; k: number } | { label: string };

/**
 * The filter program: wrong architecture or x32 ABI → kill; DENIED → EPERM; clone with namespace
 * flags → EPERM; clone3 → ENOSYS (its flags sit in user memory BPF cannot read; libc then falls
 * back to clone, which we can inspect); unless `network`, socket(AF_INET/AF_INET6/AF_PACKET) →
 * EAFNOSUPPORT; everything else allowed.
 */
export function buildSeccompFilter(opts: { network: boolean; arch?: string }): Buffer {
  const a = ARCHES[opts.arch ?? process.arch];
  if (!a) throw new Error(`no seccomp filter for architecture ${opts.arch ?? process.arch}`);
  const s = a.sys;
  const p: Ins[] = [];
  const ld = (off: number) => p.push({ code: LD_W_ABS, jt: 0, jf: 0, k: off });
  const ret = (k: number) => p.push({ code: RET_K, jt: 0, jf: 0, k });
  ld(4);
  p.push({ code: JEQ_K, jt: 0, jf: 'kill', k: a.audit });
  ld(0);
  if (a.x32) p.push({ code: JGE_K, jt: 'kill', jf: 0, k: 0x40000000 });
  for (const name of DENIED) p.push({ code: JEQ_K, jt: 'eperm', jf: 0, k: s[name]! });
  p.push({ code: JEQ_K, jt: 'enosys', jf: 0, k: s.clone3! });
  p.push({ code: JEQ_K, jt: 'clone', jf: 0, k: s.clone! });
  if (!opts.network) p.push({ code: JEQ_K, jt: 'socket', jf: 0, k: s.socket! });
  ret(RET_ALLOW);
  p.push({ label: 'clone' });
  ld(16);
  p.push({ code: JSET_K, jt: 'eperm', jf: 0, k: CLONE_NS_FLAGS });
  ret(RET_ALLOW);
  if (!opts.network) {
    p.push({ label: 'socket' });
    ld(16);
    for (const af of [AF_INET, AF_INET6, AF_PACKET]) p.push({ code: JEQ_K, jt: 'eafnosupport', jf: 0, k: af });
    ret(RET_ALLOW);
    p.push({ label: 'eafnosupport' });
    ret(retErrno(EAFNOSUPPORT));
  }
  p.push({ label: 'eperm' });
  ret(retErrno(EPERM));
  p.push({ label: 'enosys' });
  ret(retErrno(ENOSYS));
  p.push({ label: 'kill' });
  ret(RET_KILL_PROCESS);
  return assemble(p);
}

/** Resolve labels to relative jump offsets (BPF jumps count from the next instruction). */
function assemble(p: Ins[]): Buffer {
  const labels = new Map<string, number>();
  const code: Exclude<Ins, { label: string }>[] = [];
  for (const i of p) {
    if ('label' in i) labels.set(i.label, code.length);
    else code.push(i);
  }
  const buf = Buffer.alloc(code.length * 8);
  code.forEach((ins, idx) => {
    const off = (t: number | string) => {
      if (typeof t === 'number') return t;
      const d = labels.get(t)! - idx - 1;
      if (!(d >= 0 && d <= 255)) throw new Error(`seccomp jump to ${t} out of range`);
      return d;
    };
    buf.writeUInt16LE(ins.code, idx * 8);
    buf.writeUInt8(off(ins.jt), idx * 8 + 2);
    buf.writeUInt8(off(ins.jf), idx * 8 + 3);
    buf.writeUInt32LE(ins.k >>> 0, idx * 8 + 4);
  });
  return buf;
}

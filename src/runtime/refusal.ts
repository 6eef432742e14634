// When a call fails because of the sandbox, say so, and name the setting that changes it. A tool
// sees the sandbox only as errno text ("[Errno 97] Address family not supported by protocol", a bare
// PermissionError, "Too many open files"); this reads that text together with what the call was
// allowed (network, the paths the tier shows, the limits) and what the tier enforces, and turns it
// into "the sandbox refused …" plus `sandbox.network: true`, `sandbox.paths`, `sandbox.open_files: …`.
// Only what the tier really enforces is blamed on it: on tier `none` a network error is the network's.
import { tmpdir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolContract } from '../contract/types.js';
import type { LimitHit, SandboxTier } from '../sandbox/types.js';

/** What the runtime knows about one call when it fails. */
export interface CallFacts {
  /** The tier the call ran under (from the error), when known. */
  tier?: string;
  network: boolean;
  root: string;
  /** Host paths the call was shown besides the system: the tool's own folder(s) and sandbox.paths. */
  visible: string[];
  contract: ToolContract;
  file: string;
}

/** What a failure's text says about the sandbox. */
export type Explanation =
  | { kind: 'limit'; limit: LimitHit }
  | { kind: 'refusal'; code: 'network_closed' | 'read_only_path' | 'path_not_visible'; message: string; hint: string }
  | { kind: 'hint'; hint: string };

const NETWORK = [
  /\[Errno 97\]|Address family not supported by protocol|EAFNOSUPPORT/,
  /\[Errno 101\]|Network is unreachable|ENETUNREACH/,
  /\[Errno -[23]\]|Temporary failure in name resolution|Name or service not known|EAI_AGAIN|getaddrinfo ENOTFOUND/,
  /Could not resolve host|unable to resolve host|\bfetch failed\b/,
];
const PROCESSES = [
  /BlockingIOError: \[Errno 11\]|\[Errno 11\] Resource temporarily unavailable/,
  /fork.*Resource temporarily unavailable|Resource temporarily unavailable.*fork|spawn .*EAGAIN|can'?t fork|Cannot fork/i,
];
const FILE_SIZE = /\[Errno 27\]|File too large|\bEFBIG\b/;
const OPEN_FILES = /\[Errno 24\]|Too many open files|\bEMFILE\b/;
const MEMORY = /\bMemoryError\b|\[Errno 12\]|Cannot allocate memory|\bENOMEM\b/;
const READ_ONLY = /\[Errno 30\]|Read-only file system|\bEROFS\b/;
const DENIED = /\[Errno 13\]|Permission denied|\bEACCES\b/;
const MISSING = /\[Errno 2\]|No such file or directory|Directory nonexistent|\bENOENT\b/;
// A missing path met while creating or writing something (touch, sh's `>`, cp, mkdir, tee, a write
// mode): binding it read-only would not help; the scratch folder would.
const WRITING =
  /cannot touch|cannot create|can't create|cannot make directory|cannot open .* for writing|\bfor writing\b|\btee: |open\([^)]*['"][wax]\+?b?['"]/i;
// Always shown (read-only) on tier bwrap, whatever the contract says.
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/proc', '/dev', '/sys'];

const under = (p: string, dir: string) => {
  const r = relative(dir, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/** The line of `text` with `phrase`, and the file path it names (quoted, or the absolute path before the phrase). */
function pathNear(text: string, phrase: RegExp): { line: string; path?: string } | undefined {
  for (const line of text.split('\n')) {
    const m = phrase.exec(line);
    if (!m) continue;
    const quoted = [...line.matchAll(/'([^']+)'|"([^"]+)"/g)].map((q) => q[1] ?? q[2]!);
    const bare = [...line.slice(0, m.index).matchAll(/(?:^|[\s(])(\/[^\s:'"()]+)/g)].map((q) => q[1]!);
    const path =
      quoted.find((q) => q.startsWith('/') || /^[\w.-]+\//.test(q) || /^[\w.-]+\.\w+$/.test(q)) ?? bare.pop();
    return { line: line.trim(), ...(path ? { path } : {}) };
  }
  return undefined;
}

const short = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/**
 * What the failure text of a call says about the sandbox, or undefined when it says nothing. The
 * limits a tool meets as an error (not a kill) come back as `limit`; what the sandbox hides or keeps
 * read-only or offline as `refusal`; a relative path that is not there as a `hint` (the working
 * folder is the call's scratch folder, on every tier).
 */
export function explainFailure(text: string, f: CallFacts): Explanation | undefined {
  const tier = f.tier as SandboxTier | undefined;
  const confined = tier === 'bwrap';
  const c = f.contract;
  const where = f.file;
  if (!f.network && (tier === 'bwrap' || tier === 'unshare') && NETWORK.some((r) => r.test(text))) {
    const line =
      pathNear(
        text,
        NETWORK.find((r) => r.test(text))!,
      )?.line ?? '';
    return {
      kind: 'refusal',
      code: 'network_closed',
      message: `the sandbox refused: tool '${c.id}' tried to reach the network, which its contract keeps closed (${short(line)})`,
      hint: `If the tool needs the network, open it in ${where}: \`sandbox: { network: true }\`.`,
    };
  }
  const writer = mcpWriter(text, f);
  if (confined && writer) return writer;
  if (tier !== 'none' && tier !== undefined && PROCESSES.some((r) => r.test(text)))
    return { kind: 'limit', limit: 'processes' };
  if (FILE_SIZE.test(text)) return { kind: 'limit', limit: 'file_size' };
  if (OPEN_FILES.test(text)) return { kind: 'limit', limit: 'open_files' };
  if (MEMORY.test(text)) return { kind: 'limit', limit: 'memory' };
  const scratch =
    "Write to the call's scratch folder instead: $TOOLBOX_SCRATCH (also TMPDIR, HOME and the working folder), removed after the call; return what the caller needs.";
  const ro = confined ? pathNear(text, READ_ONLY) : undefined;
  if (ro) {
    const path = ro.path && isAbsolute(ro.path) ? resolve(ro.path) : undefined;
    return {
      kind: 'refusal',
      code: 'read_only_path',
      message: `the sandbox refused: tool '${c.id}' tried to write${path ? ` ${path}` : ''}, which the sandbox shows it read-only (${short(ro.line)})`,
      hint: `${scratch} A tool never writes into the project or its own code.`,
    };
  }
  const denied = confined ? pathNear(text, DENIED) : undefined;
  if (denied) {
    const path = denied.path && isAbsolute(denied.path) ? resolve(denied.path) : undefined;
    const inProject = path !== undefined && under(path, f.root);
    return {
      kind: 'refusal',
      code: 'read_only_path',
      message: `the sandbox refused: tool '${c.id}' was denied ${path ?? 'a file'}${inProject ? ': the sandbox shows the project read-only' : ''}, and the tool runs as a user of its own, who cannot write there or read files only their owner can (${short(denied.line)})`,
      hint: `${scratch} A file in sandbox.paths that the tool must read has to be readable by others (chmod o+r).`,
    };
  }
  const gone = pathNear(text, MISSING);
  if (gone?.path && !isAbsolute(gone.path))
    return {
      kind: 'hint',
      hint: `'${gone.path}' is relative: a tool's working folder is the call's scratch folder ($TOOLBOX_SCRATCH), not the project. Find the tool's own files from its module (Python: Path(__file__).parent; Node: import.meta.dirname), and bind data with \`sandbox: { paths: [...] }\` in ${where}.`,
    };
  if (gone?.path && confined) {
    const path = resolve(gone.path);
    const inProject = under(path, f.root);
    // Outside the project, the call's own writable folders (its scratch folder, /tmp) are shown too:
    // a file missing there is just missing.
    const shown =
      f.visible.some((v) => under(path, v)) ||
      (!inProject && (SYSTEM.some((d) => under(path, d)) || under(path, '/tmp') || under(path, tmpdir())));
    if (shown) return undefined; // somewhere the tool can see: really missing
    const rel = relative(f.root, path);
    if (WRITING.test(gone.line))
      return {
        kind: 'refusal',
        code: 'path_not_visible',
        message: `the sandbox refused: tool '${c.id}' tried to write ${path}, ${inProject ? 'in the project, which the sandbox does not show it' : 'outside the project, which the sandbox does not show it'} (${short(gone.line)})`,
        hint: `${scratch} A tool never writes into the project or outside it; no bind or grant makes such a write work.`,
      };
    return {
      kind: 'refusal',
      code: 'path_not_visible',
      message: `the sandbox refused: tool '${c.id}' tried to open ${path}, which the sandbox does not show it (it sees the system, its own code, its scratch folder${(c.sandbox?.paths?.length ?? 0) > 0 ? ' and sandbox.paths' : ''}) (${short(gone.line)})`,
      hint: inProject
        ? `If the tool may read it, bind it read-only in ${where}: \`sandbox: { paths: [${rel}] }\` (a path inside the project).`
        : `It is outside the project: a contract cannot ask for it; only your own grant can (grants.yaml in ~/.config/toolbox/, see docs/sandbox.md).`,
    };
  }
  return undefined;
}

const MCP_PATH_ERROR = new RegExp(
  [MISSING.source, READ_ONLY.source, DENIED.source, 'Access denied', 'outside allowed director'].join('|'),
);

/**
 * An imported tool of a stdio MCP server that says it writes (`annotations.readOnlyHint: false`,
 * e.g. server-filesystem's create_directory): the sandbox shows its server every host path
 * read-only, so a write fails whatever the server makes of it (EROFS, ENOENT from a mkdir in a
 * read-only bind, its own "Access denied … outside allowed directories"). Say so, rather than
 * "failed: ENOENT", and name what can work.
 */
function mcpWriter(text: string, f: CallFacts): Explanation | undefined {
  const c = f.contract;
  const cfg = c.loader_config as { command?: unknown } | undefined;
  if (c.loader !== 'mcp' || typeof cfg?.command !== 'string' || c.annotations?.readOnlyHint !== false) return undefined;
  if (!MCP_PATH_ERROR.test(text)) return undefined;
  const line =
    text
      .split('\n')
      .find((l) => MCP_PATH_ERROR.test(l))
      ?.trim() ?? '';
  return {
    kind: 'refusal',
    code: 'read_only_path',
    message: `the sandbox refused: MCP tool '${c.id}' writes files (annotations.readOnlyHint: false in ${f.file}), but the sandbox shows its server every host path read-only, so this call cannot work there (${short(line)})`,
    hint: 'A stdio MCP server in the sandbox can write only its own scratch folder, removed when it stops. To let a server write your files, run it yourself outside toolbox and import it by URL (`toolbox import mcp --url …`), or use a tool that returns the content for the caller to save.',
  };
}

// explainFailure: the errno text of a failed call, read against what the call was allowed and what its
// tier enforces, as "the sandbox refused" plus the setting that changes it (issue 27).
import { describe, expect, it } from 'vitest';
import { explainFailure, type CallFacts } from '../../src/runtime/refusal.js';
import type { ToolContract } from '../../src/contract/types.js';

const facts = (over: Partial<CallFacts> = {}): CallFacts => ({
  tier: 'bwrap',
  network: false,
  root: '/home/u/proj',
  visible: ['/home/u/proj/my_tools'],
  contract: { id: 't', sandbox: {} } as unknown as ToolContract,
  file: '/home/u/proj/tool_registry/t.yaml',
  ...over,
});
const kind = (text: string, over?: Partial<CallFacts>) => {
  const e = explainFailure(text, facts(over));
  return e ? (e.kind === 'refusal' ? e.code : e.kind === 'limit' ? `limit:${e.limit}` : 'hint') : undefined;
};

describe('explainFailure', () => {
  it.each([
    // Python, Node and C-tool spellings of the same refusals
    ['URLError: <urlopen error [Errno 97] Address family not supported by protocol>', 'network_closed'],
    ['OSError: [Errno 101] Network is unreachable', 'network_closed'],
    ['socket.gaierror: [Errno -3] Temporary failure in name resolution', 'network_closed'],
    ['TypeError: fetch failed', 'network_closed'],
    ['Error: connect EAFNOSUPPORT 93.184.216.34:80', 'network_closed'],
    ['curl: (6) Could not resolve host: example.com', 'network_closed'],
    ["PermissionError: [Errno 13] Permission denied: '/home/u/proj/out.txt'", 'read_only_path'],
    ["OSError: [Errno 30] Read-only file system: '/home/u/proj/my_tools/x'", 'read_only_path'],
    ["Error: EROFS: read-only file system, open '/home/u/proj/my_tools/x'", 'read_only_path'],
    ['sh: 1: cannot create /home/u/proj/out.txt: Read-only file system', 'read_only_path'],
    ["FileNotFoundError: [Errno 2] No such file or directory: '/home/u/proj/data/a.csv'", 'path_not_visible'],
    ["Error: ENOENT: no such file or directory, open '/srv/data/a.csv'", 'path_not_visible'],
    ['cat: /srv/data/a.csv: No such file or directory', 'path_not_visible'],
    ['/p/bin/w.sh: 2: cannot create /home/u/proj/data/out.txt: Directory nonexistent', 'path_not_visible'],
    ["FileNotFoundError: [Errno 2] No such file or directory: 'data/a.csv'", 'hint'],
    ['BlockingIOError: [Errno 11] Resource temporarily unavailable', 'limit:processes'],
    ['Error: spawn /bin/sh EAGAIN', 'limit:processes'],
    ['OSError: [Errno 27] File too large', 'limit:file_size'],
    ["OSError: [Errno 24] Too many open files: '/dev/null'", 'limit:open_files'],
    ['Error: EMFILE: too many open files, open', 'limit:open_files'],
    ['MemoryError', 'limit:memory'],
  ])('%s → %s', (text, want) => {
    expect(kind(text)).toBe(want);
  });

  it('blames only what the tier enforces', () => {
    const net = 'OSError: [Errno 101] Network is unreachable';
    expect(kind(net, { tier: 'unshare' })).toBe('network_closed');
    expect(kind(net, { tier: 'none' })).toBeUndefined(); // tier none closes nothing: a network error is the network's
    expect(kind(net, { network: true })).toBeUndefined(); // the contract opened it
    const ro = "PermissionError: [Errno 13] Permission denied: '/home/u/proj/out.txt'";
    expect(kind(ro, { tier: 'unshare' })).toBeUndefined(); // files are not confined there
    const gone = "FileNotFoundError: [Errno 2] No such file or directory: '/home/u/proj/data/a.csv'";
    expect(kind(gone, { tier: 'none' })).toBeUndefined();
    expect(kind('BlockingIOError: [Errno 11] Resource temporarily unavailable', { tier: 'none' })).toBeUndefined();
  });

  it('a write to a path the sandbox does not show: the scratch folder, not a read-only bind or a grant', () => {
    for (const [text, path] of [
      ["/usr/bin/touch: cannot touch '/home/u/proj/out.txt': No such file or directory", '/home/u/proj/out.txt'],
      ["touch: cannot touch '/srv/out.txt': No such file or directory", '/srv/out.txt'],
      ['/p/bin/w.sh: 2: cannot create /home/u/proj/data/out.txt: Directory nonexistent', '/home/u/proj/data/out.txt'],
      ["mkdir: cannot create directory '/srv/new': No such file or directory", '/srv/new'],
    ]) {
      const e = explainFailure(text!, facts());
      expect(e).toMatchObject({ kind: 'refusal', code: 'path_not_visible' });
      expect(e!.kind === 'refusal' && e!.message).toContain(`tried to write ${path}`);
      const hint = e!.kind === 'refusal' ? e!.hint : '';
      expect(hint).toContain('$TOOLBOX_SCRATCH');
      expect(hint).not.toContain('sandbox: { paths');
      expect(hint).not.toContain('grants.yaml');
    }
    // a read keeps the bind hint
    const read = explainFailure('cat: /home/u/proj/data/a.csv: No such file or directory', facts());
    expect(read!.kind === 'refusal' && read!.hint).toContain('`sandbox: { paths: [data/a.csv] }`');
  });

  it('an MCP tool that writes, of a stdio server: the sandbox shows every host path read-only (issue 38)', () => {
    const mcp = (readOnlyHint: boolean, cfg: object = { command: 'srv', tool: 'create_directory' }) =>
      ({
        id: 'fs_mk',
        loader: 'mcp',
        loader_config: cfg,
        annotations: { readOnlyHint },
        sandbox: {},
      }) as unknown as ToolContract;
    const text = "ENOENT: no such file or directory, mkdir '/home/u/proj/my_tools/new'"; // inside a shown folder
    const e = explainFailure(text, facts({ contract: mcp(false) }));
    expect(e).toMatchObject({ kind: 'refusal', code: 'read_only_path' });
    expect(e!.kind === 'refusal' && e!.message).toMatch(/MCP tool 'fs_mk' writes files/);
    const outside = 'Access denied - path outside allowed directories: /srv/x not in /home/u/proj/data';
    expect(kind(outside, { contract: mcp(false) })).toBe('read_only_path');
    expect(kind(text, { contract: mcp(true) })).toBeUndefined(); // a reader's missing file is just missing
    expect(kind(text, { contract: mcp(false), tier: 'none' })).toBeUndefined(); // not confined there
    expect(kind(text, { contract: mcp(false, { url: 'http://127.0.0.1:1/mcp', tool: 'x' }) })).toBeUndefined(); // not in our sandbox
  });

  it('a path the tool can see is just missing, not hidden', () => {
    for (const p of ['/home/u/proj/my_tools/x.json', '/usr/share/zoneinfo/Nowhere', '/tmp/toolbox-run-abc/x'])
      expect(kind(`FileNotFoundError: [Errno 2] No such file or directory: '${p}'`)).toBeUndefined();
    // sandbox.paths count as shown
    expect(
      kind("FileNotFoundError: [Errno 2] No such file or directory: '/home/u/proj/data/a.csv'", {
        visible: ['/home/u/proj/my_tools', '/home/u/proj/data'],
      }),
    ).toBeUndefined();
  });

  it('names the setting that changes it', () => {
    const net = explainFailure('OSError: [Errno 101] Network is unreachable', facts());
    expect(net).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/^the sandbox refused: /) });
    expect(net!.kind === 'refusal' && net!.hint).toContain('`sandbox: { network: true }`');
    const hidden = explainFailure(
      "FileNotFoundError: [Errno 2] No such file or directory: '/home/u/proj/my_tools/../data/a.csv'",
      facts(),
    );
    expect(hidden!.kind === 'refusal' && hidden!.message).toContain('/home/u/proj/data/a.csv');
    expect(hidden!.kind === 'refusal' && hidden!.hint).toContain('`sandbox: { paths: [data/a.csv] }`');
    const outside = explainFailure("FileNotFoundError: [Errno 2] No such file or directory: '/srv/a'", facts());
    expect(outside!.kind === 'refusal' && outside!.hint).toMatch(/grants\.yaml/);
    const ro = explainFailure("OSError: [Errno 30] Read-only file system: '/home/u/proj/my_tools/x'", facts());
    expect(ro!.kind === 'refusal' && ro!.hint).toContain('$TOOLBOX_SCRATCH');
  });
});

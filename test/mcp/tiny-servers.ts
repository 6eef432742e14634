// Two tiny real MCP servers (newline-delimited JSON-RPC over stdio, no SDK): one in Node, kept in a
// project folder, whose tool list comes from tools.txt beside it (so a test can make tools vanish);
// one in Python, shipped as a wheel with a console script (PyPI is not reachable here).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Node server: tools named in tools.txt (one per line); `read {path}` returns a file's text or the error code. */
export const NODE_SERVER = `import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const here = new URL('.', import.meta.url).pathname;
const names = readFileSync(here + 'tools.txt', 'utf8').split('\\n').filter(Boolean);
const tool = (name) => ({ name, description: 'tiny tool ' + name, inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { readOnlyHint: true, openWorldHint: false } });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny-node', version: '1.0.0' } } });
  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: names.map(tool) } });
  else if (m.method === 'tools/call') {
    let text;
    try { text = readFileSync(m.params.arguments.path, 'utf8'); } catch (e) { text = 'error ' + e.code; }
    send({ id: m.id, result: { content: [{ type: 'text', text }] } });
  } else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;

const PY_SERVER = `import json, os, sys

def main():
    for line in sys.stdin:
        m = json.loads(line)
        out = None
        if m.get("method") == "initialize":
            out = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}},
                   "serverInfo": {"name": "tiny-py", "version": "0.3.0"}}
        elif m.get("method") == "tools/list":
            out = {"tools": [{"name": "py_echo", "description": "Echo a text back from Python.",
                              "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
                              "annotations": {"readOnlyHint": True}}]}
        elif m.get("method") == "tools/call":
            out = {"content": [{"type": "text", "text": "py says " + m["params"]["arguments"]["text"]}]}
        if "id" in m:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": out}) + "\\n")
            sys.stdout.flush()
`;

/** A wheel of a Python MCP server package with the console script `name` (module name with _). */
export function makeServerWheel(outDir: string, name: string, version: string): string {
  const mod = name.replace(/-/g, '_');
  const file = join(outDir, `${mod}-${version}-py3-none-any.whl`);
  const script = `
import zipfile, sys, hashlib, base64
name, mod, version, path, src = sys.argv[1:6]
di = f"{mod}-{version}.dist-info"
files = {
  f"{mod}/__init__.py": src,
  f"{di}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
  f"{di}/WHEEL": "Wheel-Version: 1.0\\nGenerator: toolbox-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
  f"{di}/entry_points.txt": f"[console_scripts]\\n{name} = {mod}:main\\n",
}
def h(data):
  return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data.encode()).digest()).rstrip(b"=").decode()
record = "".join(f"{p},{h(c)},{len(c.encode())}\\n" for p, c in files.items()) + f"{di}/RECORD,,\\n"
with zipfile.ZipFile(path, "w") as z:
  for p, c in files.items(): z.writestr(p, c)
  z.writestr(f"{di}/RECORD", record)
`;
  mkdirSync(outDir, { recursive: true });
  execFileSync('python3', ['-c', script, name, mod, version, file, PY_SERVER]);
  return file;
}

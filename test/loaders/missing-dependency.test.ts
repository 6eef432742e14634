// An import the tool's environment cannot satisfy (issue 38): the error names the package, what to
// declare in `requires`, and `toolbox deps --install ID`; exit 6 like every missing dependency. Real
// Python and Node tools in the real sandbox; the tool's own missing code stays the contract's fault.
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempProject } from '../helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const contract = (id: string, loader: string, extra = '') =>
  `id: ${id}\nname: ${id}\ndescription: Test tool ${id} with an import that is not installed here.\n` +
  `schema: { type: object, properties: {} }\n${loader}\n${extra}`;

describe('an undeclared import', () => {
  it('Python, at import and during the call: missing_dependency (exit 6) naming requires.python and deps --install', async () => {
    const p = tempProject({
      'my_tools/__init__.py': '',
      'my_tools/top.py': 'import toolbox_absent_pkg_q\ndef go():\n    return 1\n',
      'my_tools/late.py': 'def go():\n    import toolbox_absent_pkg_q.sub\n    return 1\n',
      'my_tools/own.py': 'from my_tools import helper_not_written\ndef go():\n    return 1\n',
      'tool_registry/top.yaml': contract(
        'top',
        'loader: python_function\nloader_config: { module: my_tools.top, function: go }',
      ),
      'tool_registry/late.yaml': contract(
        'late',
        'loader: python_function\nloader_config: { module: my_tools.late, function: go }',
      ),
      'tool_registry/said.yaml': contract(
        'said',
        'loader: python_function\nloader_config: { module: my_tools.top, function: go }',
        'requires: { python: [toolbox-absent-pkg-q] }\n',
      ),
      'tool_registry/own.yaml': contract(
        'own',
        'loader: python_function\nloader_config: { module: my_tools.own, function: go }',
      ),
    });
    cleanup = p.cleanup;
    const top = await cli(['run', 'top', '--json'], { cwd: p.dir });
    expect(top.code).toBe(6);
    expect(top.errorJson.error.code).toBe('missing_dependency');
    expect(top.errorJson.error.message).toContain("'toolbox_absent_pkg_q'");
    expect(top.errorJson.error.hint).toContain('`requires: { python: [toolbox_absent_pkg_q] }`');
    expect(top.errorJson.error.hint).toContain('`toolbox deps --install top`');
    // a lazy import inside the function: the same
    const late = await cli(['run', 'late', '--json'], { cwd: p.dir });
    expect(late.code).toBe(6);
    expect(late.errorJson.error.code).toBe('missing_dependency');
    expect(late.errorJson.error.hint).toContain('`requires: { python: [toolbox_absent_pkg_q] }`');
    expect(late.errorJson.error.hint).toContain('`toolbox deps --install late`');
    // declared: the check before the call says so, with the same install command
    const said = await cli(['run', 'said', '--json'], { cwd: p.dir });
    expect(said.code).toBe(6);
    expect(said.errorJson.error.code).toBe('missing_dependencies');
    expect(said.errorJson.error.hint).toContain('`toolbox deps --install said`');
    // the tool's own package: not a dependency to install
    const own = await cli(['run', 'own', '--json'], { cwd: p.dir });
    expect(own.errorJson.error.code).not.toBe('missing_dependency');
  });

  it("Node: a package is missing_dependency (exit 6); the tool's own missing file stays tool_module_not_found", async () => {
    const p = tempProject({
      'js/imp.mjs': "import x from 'toolbox-absent-pkg-q';\nexport default function () { return x; }\n",
      'tool_registry/imp.yaml': contract('imp', 'loader: node_module\nloader_config: { module: js/imp.mjs }'),
      'tool_registry/gone.yaml': contract('gone', 'loader: node_module\nloader_config: { module: js/gone.mjs }'),
    });
    cleanup = p.cleanup;
    const imp = await cli(['run', 'imp', '--json'], { cwd: p.dir });
    expect(imp.code).toBe(6);
    expect(imp.errorJson.error.code).toBe('missing_dependency');
    expect(imp.errorJson.error.hint).toContain('`requires: { node: ["toolbox-absent-pkg-q"] }`');
    const gone = await cli(['run', 'gone', '--json'], { cwd: p.dir });
    expect(gone.code).toBe(3);
    expect(gone.errorJson.error.code).toBe('tool_module_not_found');
  });
});

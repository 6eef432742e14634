// Query a JSON document with a path such as `data.items[0].name`, `items[*].price`, `$..id`
// (any depth) or `meta["content-type"]`. Node built-ins only.

/** Split a path into steps: {key}, {index}, {wildcard}, or {descend, key?}. */
function parsePath(path) {
  const steps = [];
  let i = 0;
  const src = path.trim();
  if (src.startsWith('$')) i = 1;
  const fail = (why) => { throw new Error(`invalid path at character ${i + 1} of '${path}': ${why}. Examples: a.b[0].c, items[*].name, $..id, meta["content-type"]`); };
  const ident = () => {
    const m = /^[^.[\]\s"']+/u.exec(src.slice(i));
    if (!m) fail('expected a key name');
    i += m[0].length;
    return m[0];
  };
  if (i < src.length && src[i] !== '.' && src[i] !== '[') steps.push(keyStep(ident()));
  while (i < src.length) {
    if (src.startsWith('..', i)) {
      i += 2;
      if (src[i] === '*') { i++; steps.push({ descend: true }); }
      else if (src[i] === '[') steps.push({ descend: true, ...bracket() });
      else steps.push({ descend: true, key: ident() });
    } else if (src[i] === '.') {
      i++;
      if (src[i] === '*') { i++; steps.push({ wildcard: true }); } else steps.push(keyStep(ident()));
    } else if (src[i] === '[') {
      steps.push(bracket());
    } else fail(`unexpected '${src[i]}'`);
  }
  return steps;

  function bracket() {
    const close = src.indexOf(']', i);
    if (close < 0) fail("missing ']'");
    const inner = src.slice(i + 1, close).trim();
    i = close + 1;
    if (inner === '*') return { wildcard: true };
    if (/^-?\d+$/.test(inner)) return { index: Number(inner) };
    const quoted = /^(["'])(.*)\1$/su.exec(inner);
    if (quoted) return { key: quoted[2] };
    fail(`'[${inner}]' is neither an index, * nor a quoted key`);
  }
}

function keyStep(name) {
  return name === '*' ? { wildcard: true } : { key: name };
}

const isObject = (v) => v !== null && typeof v === 'object';
const childPath = (base, k) => (typeof k === 'number' ? `${base}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${base}.${k}` : `${base}[${JSON.stringify(k)}]`);

function children(node, base) {
  if (Array.isArray(node)) return node.map((v, k) => [childPath(base, k), v]);
  if (isObject(node)) return Object.entries(node).map(([k, v]) => [childPath(base, k), v]);
  return [];
}

function apply(step, [base, node]) {
  if (step.descend) {
    const all = [];
    const walk = (p, n) => { all.push([p, n]); for (const c of children(n, p)) walk(...c); };
    walk(base, node);
    const rest = { ...step, descend: false };
    return step.key === undefined && step.index === undefined && !step.wildcard ? all.flatMap((e) => children(e[1], e[0])) : all.flatMap((e) => apply(rest, e));
  }
  if (step.wildcard) return children(node, base);
  if (step.index !== undefined) {
    if (!Array.isArray(node)) return [];
    const k = step.index < 0 ? node.length + step.index : step.index;
    return k >= 0 && k < node.length ? [[childPath(base, k), node[k]]] : [];
  }
  if (isObject(node) && !Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, step.key)) return [[childPath(base, step.key), node[step.key]]];
  return [];
}

/** Tool entry point: `{ document, path }` -> `{ path, count, matches: [{ path, value }] }`. */
export default function jsonQuery({ document, path }) {
  let doc = document;
  if (typeof document === 'string') {
    try {
      doc = JSON.parse(document);
    } catch (err) {
      throw new Error(`the 'document' argument is not valid JSON: ${err.message}`);
    }
  }
  const query = String(path ?? '').trim();
  const steps = query === '' || query === '$' ? [] : parsePath(query);
  let current = [['$', doc]];
  for (const step of steps) current = current.flatMap((entry) => apply(step, entry));
  const matches = current.map(([p, value]) => ({ path: p, value }));
  // What the model reads: each match as `path = JSON` (a JSON tool's values stay JSON, not YAML-like lines).
  const text = matches.length
    ? matches.map((m) => `${m.path} = ${JSON.stringify(m.value)}`).join('\n')
    : `no match for ${query || '$'}`;
  return { path: query || '$', count: current.length, matches, text };
}

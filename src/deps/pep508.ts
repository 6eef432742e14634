/**
 * The Node side of PEP 508: split a requirement line into name / specifier / marker, and evaluate
 * markers against an interpreter's reported environment. Used only when the interpreter has no
 * `packaging` (nor pip's vendored copy); version comparison is @renovatebot/pep440's.
 */
import { createRequire } from 'node:module';

/** One parsed requirement line. */
export interface Pep508 {
  name: string;
  extras: string[];
  /** Version specifier, e.g. '>=1.2,<2' ('' when any version will do). */
  specifier: string;
  /** Direct reference (`name @ url`). */
  url?: string;
  /** Marker expression after ';' (undefined when none). */
  marker?: string;
}

const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*/;

/** Parse a PEP 508 line; returns undefined when it is not one. */
export function parsePep508(line: string): Pep508 | undefined {
  const m = NAME.exec(line);
  if (!m) return undefined;
  let rest = line.slice(m[0].length);
  let extras: string[] = [];
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) return undefined;
    extras = rest
      .slice(1, end)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    rest = rest.slice(end + 1).trimStart();
  }
  let url: string | undefined;
  let specifier = '';
  let marker: string | undefined;
  if (rest.startsWith('@')) {
    // A URL may contain ';' only when followed by whitespace does the marker begin (PEP 508).
    const semi = rest.search(/\s;/);
    url = (semi < 0 ? rest.slice(1) : rest.slice(1, semi)).trim();
    if (semi >= 0) marker = rest.slice(rest.indexOf(';', semi) + 1).trim();
  } else {
    const semi = rest.indexOf(';');
    const spec = semi < 0 ? rest : rest.slice(0, semi);
    if (semi >= 0) marker = rest.slice(semi + 1).trim();
    specifier = spec
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .replace(/\s+/g, '');
    if (specifier && !/^(~=|===|==|!=|<=|>=|<|>)/.test(specifier)) return undefined;
  }
  return { name: m[1]!, extras, specifier, url, marker: marker || undefined };
}

type Token = { t: 'var' | 'str' | 'op' | 'lp' | 'rp' | 'and' | 'or'; v: string };

const MARKER_VARS = new Set([
  'implementation_name',
  'implementation_version',
  'os_name',
  'platform_machine',
  'platform_release',
  'platform_system',
  'platform_version',
  'python_full_version',
  'platform_python_implementation',
  'python_version',
  'sys_platform',
  'extra',
  // legacy dotted names still accepted by packaging
  'os.name',
  'sys.platform',
  'platform.version',
  'platform.machine',
  'platform.python_implementation',
  'python_implementation',
]);
const LEGACY: Record<string, string> = {
  'os.name': 'os_name',
  'sys.platform': 'sys_platform',
  'platform.version': 'platform_version',
  'platform.machine': 'platform_machine',
  'platform.python_implementation': 'platform_python_implementation',
  python_implementation: 'platform_python_implementation',
};

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  const re =
    /\s*(?:(\()|(\))|('[^']*'|"[^"]*")|(===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b)|(and\b|or\b)|([A-Za-z_][A-Za-z0-9_.]*))/y;
  let i = 0;
  while (i < s.length) {
    if (/^\s*$/.test(s.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Error(`cannot parse marker at '${s.slice(i)}'`);
    i = re.lastIndex;
    if (m[1]) out.push({ t: 'lp', v: '(' });
    else if (m[2]) out.push({ t: 'rp', v: ')' });
    else if (m[3]) out.push({ t: 'str', v: m[3].slice(1, -1) });
    else if (m[4]) out.push({ t: 'op', v: m[4].replace(/\s+/, ' ') });
    else if (m[5]) out.push({ t: m[5] as 'and' | 'or', v: m[5] });
    else if (m[6]) {
      if (!MARKER_VARS.has(m[6])) throw new Error(`unknown marker variable '${m[6]}'`);
      out.push({ t: 'var', v: LEGACY[m[6]] ?? m[6] });
    }
  }
  return out;
}

let pep440: typeof import('@renovatebot/pep440') | undefined;
function pep(): typeof import('@renovatebot/pep440') {
  // CommonJS package; loaded only on the fallback path.
  pep440 ??= createRequire(import.meta.url)('@renovatebot/pep440') as typeof import('@renovatebot/pep440');
  return pep440;
}

function compare(lhs: string, op: string, rhs: string): boolean {
  if (op === 'in') return rhs.includes(lhs);
  if (op === 'not in') return !rhs.includes(lhs);
  // As packaging does: compare as PEP 440 versions when the right side is one, else as strings.
  const p = pep();
  if (op !== '===' && p.valid(lhs) && (p.valid(rhs) || /\.\*$/.test(rhs)))
    return p.satisfies(lhs, `${op}${rhs}`, { prereleases: true });
  switch (op) {
    case '==':
    case '===':
      return lhs === rhs;
    case '!=':
      return lhs !== rhs;
    case '<':
      return lhs < rhs;
    case '<=':
      return lhs <= rhs;
    case '>':
      return lhs > rhs;
    case '>=':
      return lhs >= rhs;
    default:
      throw new Error(`operator '${op}' needs versions on both sides`);
  }
}

/** Evaluate a PEP 508 marker against an environment (from the interpreter). Throws on bad syntax. */
export function evaluateMarker(marker: string, env: Record<string, string>): boolean {
  const toks = tokenize(marker);
  let i = 0;
  const value = (): string => {
    const t = toks[i++];
    if (!t || (t.t !== 'var' && t.t !== 'str')) throw new Error(`expected a value in marker '${marker}'`);
    return t.t === 'str' ? t.v : (env[t.v] ?? '');
  };
  const atom = (): boolean => {
    if (toks[i]?.t === 'lp') {
      i++;
      const v = or();
      if (toks[i++]?.t !== 'rp') throw new Error(`missing ')' in marker '${marker}'`);
      return v;
    }
    const lhs = value();
    const op = toks[i++];
    if (!op || op.t !== 'op') throw new Error(`expected an operator in marker '${marker}'`);
    return compare(lhs, op.v, value());
  };
  const and = (): boolean => {
    let v = atom();
    while (toks[i]?.t === 'and') {
      i++;
      v = atom() && v;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (toks[i]?.t === 'or') {
      i++;
      v = and() || v;
    }
    return v;
  };
  const v = or();
  if (i !== toks.length) throw new Error(`unexpected '${toks[i]!.v}' in marker '${marker}'`);
  return v;
}

/** PEP 440 `specifier` contains `version` (pre-releases count, as for installed versions). */
export function specifierContains(version: string, specifier: string): boolean | undefined {
  const p = pep();
  if (!specifier) return true;
  if (!p.valid(version)) return undefined;
  return p.satisfies(version, specifier, { prereleases: true });
}

import type { Node as YNode } from 'yaml';
import { yaml } from '../util/yaml.js';
import { fastParseYaml } from './fast-yaml.js';

export type PathSeg = string | number;
export interface Pos {
  line: number;
  column: number;
}

/** Parsed YAML plus a way to find where any JSON path sits in the source. */
export interface YamlSource {
  value: unknown;
  /** Syntax errors (and data problems such as alias bombs), located. */
  errors: { message: string; code: string; pos: Pos }[];
  /** Position of the key (or value) at `path`; the deepest existing ancestor if it is missing. */
  locate(path: readonly PathSeg[]): Pos;
}

const MAX_ALIAS_COUNT = 100;

/**
 * Parse YAML text: the fast parser when the text is in its subset (fast-yaml.ts), else `yaml`.
 * Positions come for free for the root mapping's keys; any deeper path re-parses the text with
 * positions on first use (only a file with a finding pays for it), so nothing but the text is kept.
 */
export function readYamlSource(text: string): YamlSource {
  const fast = fastParseYaml(text);
  if (!fast) return parseYamlSource(text);
  let full: YamlSource | undefined;
  // The locator keeps the text and the key lines, not the parsed value (validate keeps locators).
  const keyLines = fast.keyLines;
  const first = keyLines.values().next().value ?? 1;
  const locate = (path: readonly PathSeg[]): Pos => {
    if (path.length === 0) return { line: first, column: 1 };
    if (path.length === 1) return { line: keyLines.get(String(path[0])) ?? first, column: 1 };
    return (full ??= parseYamlSource(text)).locate(path);
  };
  return { value: fast.value, errors: [], locate };
}

/** Parse YAML text keeping line/column positions. Never throws for bad input. */
export function parseYamlSource(text: string): YamlSource {
  const { LineCounter, isMap, isSeq, isScalar, isPair, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  const at = (offset: number): Pos => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const errors: YamlSource['errors'] = doc.errors.map((e) => ({
    message: e.message.split('\n')[0]!,
    code: e.code,
    pos: at(e.pos[0]),
  }));

  let value: unknown;
  if (errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      errors.push({
        message: /alias/i.test(msg) ? `too many alias expansions (YAML alias bomb?): ${msg}` : msg,
        code: 'YAML_DATA',
        pos: { line: 1, column: 1 },
      });
    }
  }

  const locate = (path: readonly PathSeg[]): Pos => {
    let node: unknown = doc.contents;
    let best: Pos = { line: 1, column: 1 };
    if (node && (node as YNode).range) best = at((node as YNode).range![0]);
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
        if (!pair) return best;
        const key = pair.key as YNode;
        if (key?.range) best = at(key.range[0]);
        node = pair.value;
      } else if ((isSeq(node) && typeof seg === 'number') || (isSeq(node) && /^\d+$/.test(String(seg)))) {
        const item = (node as { items: unknown[] }).items[Number(seg)] as YNode | undefined;
        if (!item) return best;
        if (item.range) best = at(item.range[0]);
        node = item;
      } else {
        return best;
      }
    }
    return best;
  };

  return { value, errors, locate };
}

// One decoder for every file: a decode without `stream` keeps no state from one call to the next.
let strictUtf8: InstanceType<typeof TextDecoder> | undefined;

/** Decode bytes as strict UTF-8; on failure, the 1-based line/column of the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { error: string; pos: Pos } {
  try {
    let text = (strictUtf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text };
  } catch {
    // Find the first invalid sequence by decoding growing prefixes line by line.
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
        continue;
      }
      const b = bytes[i]!;
      if (b < 0x80) continue;
      const len = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
      let ok = len > 0 && i + len <= bytes.length;
      for (let k = 1; ok && k < len; k++) ok = (bytes[i + k]! & 0xc0) === 0x80;
      if (ok) {
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + len));
        } catch {
          ok = false;
        }
      }
      if (!ok) {
        const col = new TextDecoder().decode(bytes.subarray(lineStart, i)).length + 1;
        return { error: `invalid UTF-8 byte 0x${b.toString(16).padStart(2, '0')}`, pos: { line, column: col } };
      }
      i += len - 1;
    }
    return { error: 'invalid UTF-8', pos: { line: 1, column: 1 } };
  }
}

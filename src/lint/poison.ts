// Shared by the tool-poisoning rules: which strings of a contract a model reads, and the phrase
// lists (English + Chinese) that give away instructions hidden in them.
import type { PathSeg } from '../contract/yaml-source.js';
import { collectParams } from './params.js';

/** One string a model will read, with where it is in the contract. */
export interface ModelText {
  path: PathSeg[];
  /** For messages: "description", "description of parameter 'city'", "enum value of 'unit'". */
  what: string;
  text: string;
  /** 'prose' for names/titles/descriptions; 'value' for enum/default/const/examples values. */
  kind: 'prose' | 'value';
}

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function valuesOf(s: Record<string, unknown>, base: PathSeg[], param: string, out: ModelText[]) {
  const push = (v: unknown, path: PathSeg[], label: string) => {
    if (typeof v === 'string') out.push({ path, what: `${label} of '${param}'`, text: v, kind: 'value' });
  };
  if (Array.isArray(s.enum)) s.enum.forEach((v, i) => push(v, [...base, 'enum', i], 'enum value'));
  if (Array.isArray(s.examples)) s.examples.forEach((v, i) => push(v, [...base, 'examples', i], 'example value'));
  push(s.default, [...base, 'default'], 'default');
  push(s.const, [...base, 'const'], 'const');
}

/**
 * Everything in a contract that ends up in front of the model: name, title, description,
 * annotations' title, each parameter's description/title and its enum/default/const/examples.
 */
export function modelTexts(data: Record<string, unknown>): ModelText[] {
  const out: ModelText[] = [];
  for (const key of ['name', 'title', 'description'] as const) {
    const v = data[key];
    if (typeof v === 'string') out.push({ path: [key], what: key, text: v, kind: 'prose' });
  }
  if (isObj(data.annotations) && typeof data.annotations.title === 'string')
    out.push({
      path: ['annotations', 'title'],
      what: 'annotations.title',
      text: data.annotations.title,
      kind: 'prose',
    });
  if (isObj(data.schema) && typeof data.schema.description === 'string')
    out.push({
      path: ['schema', 'description'],
      what: 'schema description',
      text: data.schema.description,
      kind: 'prose',
    });
  for (const p of collectParams(data)) {
    for (const key of ['description', 'title'] as const) {
      const v = p.schema[key];
      if (typeof v === 'string')
        out.push({ path: [...p.path, key], what: `${key} of parameter '${p.name}'`, text: v, kind: 'prose' });
    }
    valuesOf(p.schema, p.path, p.name, out);
  }
  return out;
}

/** Every string and key of a contract, with its path (depth-limited: hostile input). */
export function allStrings(v: unknown, path: PathSeg[] = [], out: { path: PathSeg[]; text: string }[] = [], depth = 0) {
  if (depth > 40) return out;
  if (typeof v === 'string') out.push({ path, text: v });
  else if (Array.isArray(v)) v.forEach((x, i) => allStrings(x, [...path, i], out, depth + 1));
  else if (isObj(v)) {
    for (const [k, x] of Object.entries(v)) {
      out.push({ path: [...path, k], text: k });
      allStrings(x, [...path, k], out, depth + 1);
    }
  }
  return out;
}

/** Phrases that address the model to override its instructions or to hide things from the user. */
export const OVERRIDE_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+)*(previous|prior|above|earlier|preceding|other|system|original)\s+(instructions?|prompts?|rules?|messages?|directions?|guidelines?)\b/i,
  /\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show|disclose|notify)\s+(this\s+|it\s+|anything\s+)?(to\s+)?the\s+users?\b/i,
  /\bwithout\s+(telling|informing|notifying|asking)\s+the\s+users?\b/i,
  /\b(keep|hide)\s+(this|it)\s+(secret|hidden)\s+from\s+the\s+users?\b/i,
  /\b(you\s+are\s+now|from\s+now\s+on,?\s+you|new\s+instructions?\s*:|system\s+prompt\s*:)/i,
  /<\s*\/?\s*(important|system|instructions?|secret)\s*>/i,
  /\b(these|this)\s+instructions?\s+(take|takes)\s+precedence/i,
  /(忽略|无视|忘记|忘掉)(掉)?(之前|以前|先前|上面|上述|前面|所有|其他|系统)(的)?(所有)?(的)?(指令|指示|说明|规则|提示|要求)/,
  /(不要|别|切勿|不得|禁止)(告诉|告知|通知|提醒|透露给|让)用户/,
  /(对|向)用户(保密|隐瞒|隐藏)|瞒着用户|不要向用户(透露|提及|显示|说明)/,
  /(你现在是|从现在(开始|起)，?你|新的指令[:：]|系统提示[:：])/,
];

/** Secret locations: naming any of them in text a model reads is a red flag on its own. */
export const SECRET_PATHS =
  /(~\/\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|(^|[\s/'"`(（“])\.env\b|\/etc\/(passwd|shadow)\b|\.aws\/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.docker\/config\.json|\.kube\/config)/i;

/** Secret kinds: only suspicious when the text tells the model to read, send or pass them. */
export const SECRET_WORDS =
  /(api[\s_-]?keys?|private\s+keys?|access\s+tokens?|secret\s+keys?|passwords?|credentials?|session\s+cookies?|密钥|私钥|密码|令牌|凭证|凭据|口令)/i;

/** Verbs that make the model move data: read, send, include, pass… (English: before the secret). */
const EXFIL_EN = /\b(read|include|send|pass|attach|append|upload|provide|copy|paste|cat|forward|put|embed|leak)\b/gi;
/** Chinese verbs may follow the secret too ("把密钥发送到…"). */
const EXFIL_ZH = /(读取|读出|发送|附上|附加|包含|上传|传入|传给|提供|复制|粘贴|放入|填入|带上)/;

/** True when one sentence tells the model to move a secret: "include the API key", "读取密钥". */
export function asksForSecret(sentence: string): boolean {
  const w = SECRET_WORDS.exec(sentence);
  if (!w) return false;
  if (EXFIL_ZH.test(sentence)) return true;
  for (const m of sentence.matchAll(EXFIL_EN)) {
    if (m.index < w.index && w.index - m.index <= 60) return true;
  }
  return false;
}

/** First match of any of `patterns` in `text`. */
export function firstMatch(text: string, patterns: RegExp[]): string | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return m[0].trim();
  }
  return undefined;
}

// Text helpers shared by the description rules: terms (English words stemmed, Chinese words via
// Intl.Segmenter), stop words, generic words and a length measure that is fair to CJK text.

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const MAX_CHARS = 4000; // lint reads the start of very long descriptions only (Segmenter is superlinear)

let segmenter: Intl.Segmenter | undefined;

/** Light English stemmer: enough to make handles/handling/handled and files/file meet. */
export function stem(w: string): string {
  if (CJK.test(w) || w.length <= 3) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (/(ss|x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

const STOP_EN = new Set(
  words(`a an the this that these those it its is are was were be been being to of in on for with by from at as
  and or but not no nor can could will would should may might must shall i you we they he she me my your our their them his her
  which who whom whose what when where why how all any each every into onto about than then so such also only just very more most
  other another there here if else use used using user users ask asks asked want wants need needs given give gives like e g eg ie
  etc via per one two it's do does did done has have had having`).map(stem),
);

const STOP_ZH = new Set(
  words(`的 了 和 与 及 以及 或 或者 在 是 用 把 对 将 为 中 上 下 个 这 那 该 此 其 可以 能够 可 能 会 并 也 都 就 时 当 用于
  适用 适用于 需要 如果 用户 使用 调用 根据 一个 并且 而 从 到 给 让 被 所 之 后 前 里 等 等等 例如 比如 如`),
);

/**
 * Words that say nothing about what a tool acts on (verbs and nouns any tool could claim).
 * A description made only of these is vague: "处理文件", "handles files", "does stuff".
 */
const GENERIC_EN = new Set(
  words(`handle process manage do perform deal work run execute support provide help operate make get
  thing things stuff data file files item items object objects input output content contents info information request requests task
  tasks operation operations action actions something anything everything various misc miscellaneous general generic tool tools
  function functions utility utilities helper helpers service services system feature features job jobs way ways some many
  different multiple basic simple common several certain specific relevant related etc result results value values method methods
  module handler processor manager`).map(stem),
);

const GENERIC_ZH = new Set(
  words(`处理 文件 数据 东西 操作 管理 执行 信息 内容 相关 功能 工具 进行 一些 各种 事情 事务 任务 服务 支持 提供 帮助
  实现 完成 运行 对象 资料 问题 请求 结果 输入 输出 方法 模块 系统 某些 多种 不同 一般 通用 基本 简单 东东 做 搞 弄 干`),
);

export function isStopword(t: string): boolean {
  return STOP_EN.has(t) || STOP_ZH.has(t);
}

export function isGeneric(t: string): boolean {
  return GENERIC_EN.has(t) || GENERIC_ZH.has(t);
}

/** The content terms of `text`: lower-cased, stemmed, stop words removed. */
export function terms(text: string): string[] {
  return termWords(text).map((t) => t.term);
}

/** `terms`, each with the word it came from, so messages can quote words, not stems ("handles", not "handl"). */
export function termWords(text: string): { term: string; word: string }[] {
  const src = text.slice(0, MAX_CHARS).toLowerCase();
  const out: { term: string; word: string }[] = [];
  // Split into sentences first: Intl.Segmenter is superlinear on long strings.
  for (const sentence of src.split(/[。！？!?;；\n]+/)) {
    if (!sentence.trim()) continue;
    if (CJK.test(sentence)) {
      segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
      for (const seg of segmenter.segment(sentence)) {
        if (!seg.isWordLike) continue;
        pushWord(seg.segment, out);
      }
    } else {
      for (const m of sentence.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) pushWord(m[0], out);
    }
  }
  return out;
}

function pushWord(w: string, out: { term: string; word: string }[]) {
  // Segmenter gives mixed runs like "pdf文件"; split Latin from CJK.
  for (const part of w.match(/[\u3400-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}'’]+/gu) ?? []) {
    const t = CJK.test(part) ? part : stem(part.replace(/['’]s$/, ''));
    if (t.length === 0 || isStopword(t)) continue;
    if (!CJK.test(t) && t.length < 2) continue;
    out.push({ term: t, word: part });
  }
}

/**
 * Length in "Latin-character equivalents": a CJK character carries about as much as three
 * Latin ones, so one minimum works for both languages.
 */
export function weightedLength(text: string): number {
  let n = 0;
  for (const ch of text.trim()) n += CJK.test(ch) ? 3 : 1;
  return n;
}

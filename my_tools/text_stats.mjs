// Text statistics that understand Chinese, Japanese and Korean: a CJK character counts as a
// word on its own (as Chinese word counts usually do), and Latin words are counted by the
// Unicode word segmenter. Node built-ins only.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_ALL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const SENTENCE_END = /[.!?。！？…]+["'”’」』）)]*(?=\s|$)|[。！？]+/gu;
// Intl.Segmenter is superlinear on very long strings: feed it one line at a time.
const MAX_CHARS = 5_000_000;

/** Tool entry point: `{ text }` -> counts of characters, CJK characters, words, lines, sentences, paragraphs. */
export default function textStats({ text }) {
  if (typeof text !== 'string') throw new Error("'text' must be a string");
  if (text.length > MAX_CHARS) throw new Error(`text is longer than ${MAX_CHARS} characters`);
  const graphemes = new Intl.Segmenter('zh', { granularity: 'grapheme' });
  const words = new Intl.Segmenter('en', { granularity: 'word' });
  let characters = 0;
  let latinWords = 0;
  let numbers = 0;
  for (const line of text.split('\n')) {
    for (const _ of graphemes.segment(line)) characters++;
    for (const seg of words.segment(line)) {
      if (!seg.isWordLike || CJK.test(seg.segment)) continue;
      if (/^[\p{N}.,]+$/u.test(seg.segment)) numbers++;
      else latinWords++;
    }
  }
  characters += (text.match(/\n/g) ?? []).length;
  const cjk = (text.match(CJK_ALL) ?? []).length;
  const whitespace = (text.match(/\s/gu) ?? []).length;
  const lines = text === '' ? 0 : text.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(text) ? 1 : 0);
  const paragraphs = text.split(/(?:\r?\n[ \t]*){2,}/).filter((p) => p.trim() !== '').length;
  const sentences = text.trim() === '' ? 0 : Math.max(1, (text.match(SENTENCE_END) ?? []).length);
  const totalWords = cjk + latinWords + numbers;
  // Reading speed: ~300 CJK characters or ~230 English words a minute.
  const minutes = cjk / 300 + (latinWords + numbers) / 230;
  return {
    characters,
    characters_no_spaces: characters - whitespace,
    cjk_characters: cjk,
    latin_words: latinWords,
    numbers,
    words: totalWords,
    lines,
    paragraphs,
    sentences,
    reading_minutes: Math.round(minutes * 10) / 10,
    // "约 0 分钟" misleads a reader: say "under a minute" instead.
    reading_time: minutes < 1 ? '不到 1 分钟' : `约 ${Math.round(minutes)} 分钟`,
  };
}

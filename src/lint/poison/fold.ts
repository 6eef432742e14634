// Folding text to what a reader (and a model) sees, so that a pattern written once in plain ASCII
// and simplified Chinese also matches the dressed-up spellings of the same words: compatibility
// forms (fullwidth, mathematical alphanumerics, circled letters, ligatures: NFKD), accents and
// combining marks, look-alike letters from other scripts (Cyrillic, Greek, Armenian, small capitals,
// regional indicators), traditional Chinese characters, and the invisible characters that split
// words for a reviewer but not for a tokenizer. Every step is one pass over the text.

// Pairs "xa": the look-alike x folds to the ASCII letter a. Both cases are listed where they look
// alike, so a case-preserving fold keeps environment names (GІTHUB_TОKEN) upper case.
const LOOKALIKES =
  // Cyrillic
  'аaбbвbгrдdеeёeжxззиuйuкkлnмmнhоoпnрpсcтtуyфfхxцuччшwщwъbыыьbэeююяяѐeѓrєeѕsіiїiјjћhќkўyџu' +
  'ԁdԛqԝwһhӏlүyҽeɡgҫcӕæ' +
  'АAВBСCЕEНHІIЈJКKМMОOРPЅSТTХXУYԌGԚQԜWӀIҮY' +
  // Greek (lower case after case folding; capitals for the case-preserving fold)
  'αaβbγyδdεeζzηnθoιiκkλlμuνvξeοoπnρpσoςcτtυuφoχxψwωwϲcϳjάaέeήnίiόoύuώwϊiϋu' +
  'ΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXϹCϺM' +
  // Armenian, Latin letters that only look ASCII, small capitals
  'օoսuոnցgհhյjռnաwզqɑaɡgɩiıiȷjʋvɒaƅbɓbƈcɗdɛeƒfɠgɦhɨiƙkɭlɱmɲnɵoƥpʠqɽrʂsƭtʉuʌvʍwƴyƶz' +
  'ᴀaʙbᴄcᴅdᴇeꜰfɢgʜhɪiᴊjᴋkʟlᴍmɴnᴏoᴘpǫqʀrꜱsᴛtᴜuᴠvᴡwʏyᴢz';

// Traditional characters of the words the patterns use (and a few around them), to simplified.
const TRADITIONAL =
  '訴诉戶户說说讓让憑凭證证鑰钥碼码讀读發发傳传無无視视統统調调隱隐瞞瞒將将話话記记錄录檔档對对這这個个' +
  '請请須须權权據据顯显設设規规則则環环變变數数們们給给開开門门後后應应當当該该從从聽听違违麼么務务實实' +
  '與与關关預预為为爲为並并時时輸输錯错誤误覺觉現现專专屬属啟启動动態态導导歷历會会條条內内複复製制貼贴' +
  '寫写進进資资訊讯網网頁页郵邮帳帐號号機机聯联繫系結结訪访問问題题確确認认執执運运範范圍围選选擇择優优' +
  '級级舊旧棄弃損损壞坏廢废換换總总論论體体轉转帶带報报匯汇蓋盖過过繞绕別别鍵键鏈链書书處处項项蒐搜剛刚' +
  '還还這这裡里裏里瞭了嗎吗誰谁讓让遵遵單单護护盜盗竊窃洩泄漏漏隻只於于齊齐憶忆歸归義义擊击駭骇氣气鐘钟' +
  '務务憑凭據据貨货幣币費费寄寄遞递達达頭头尾尾臨临監监權权劃划線线紀纪跡迹蹤踪';

// Typographic quotes and dashes as the ASCII ones ("don’t" is "don't").
const PUNCT = '’\'‘\'ʼ\'“"”"„"‐-‑-‒-–-—-―-';

const FOLD = new Map<string, string>();
for (const s of [LOOKALIKES, TRADITIONAL, PUNCT]) {
  const cs = [...s];
  for (let i = 0; i + 1 < cs.length; i += 2) FOLD.set(cs[i]!, cs[i + 1]!);
}

/**
 * Invisible in print, and no part of any word: format characters (zero-width space/joiners, bidi
 * marks and isolates, soft hyphen, word joiner, BOM, Unicode tags), Hangul fillers, the Mongolian
 * vowel separator. (Variation selectors and combining marks go with the marks after NFKD.)
 */
const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0\u180e]/gu;
const MARKS = /\p{M}/gu;
const ASCII_PRINTABLE = /^[\x20-\x7e\t\n\r]*$/;

function foldChar(ch: string): string {
  const f = FOLD.get(ch);
  if (f !== undefined) return f;
  const cp = ch.codePointAt(0)!;
  // Regional indicators (🇦…🇿), negative circled (🅐…🅩) and negative squared (🅰…🆉) letters.
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return String.fromCharCode(97 + cp - 0x1f1e6);
  if (cp >= 0x1f150 && cp <= 0x1f169) return String.fromCharCode(65 + cp - 0x1f150);
  if (cp >= 0x1f170 && cp <= 0x1f189) return String.fromCharCode(65 + cp - 0x1f170);
  if (cp === 0x2800) return ' '; // braille blank
  return ch;
}

/**
 * The text as read: compatibility forms decomposed (NFKD), marks and invisible characters
 * removed, look-alike letters and traditional characters folded, recomposed (NFKC). Case is kept
 * (environment names are upper case); ASCII text comes back as it is.
 */
export function foldText(text: string): string {
  if (ASCII_PRINTABLE.test(text)) return text;
  const decomposed = text.normalize('NFKD').replace(MARKS, '').replace(INVISIBLE, '');
  let out = '';
  for (const ch of decomposed) out += ch.charCodeAt(0) < 0x80 ? ch : foldChar(ch);
  return out.normalize('NFKC');
}

/** Only the invisible characters removed and compatibility forms composed: what decoders read. */
export function cleanText(text: string): string {
  if (ASCII_PRINTABLE.test(text)) return text;
  return text.replace(INVISIBLE, '').normalize('NFKC');
}

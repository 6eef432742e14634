// The constants of typo tolerance (typos.ts), apart from it so that the ranking model's RANK can
// hold them without importing the query side.

/** How a typo stands in: its weight against the typed word's, and the lengths that allow 1 or 2 edits. */
export interface TypoParams {
  /** Weight of a correction against the word as typed (0 = off); split over the candidates (÷ √n). */
  weight: number;
  /** Shortest stem that may be corrected with one edit (shorter words have too many neighbours). */
  min1: number;
  /** Shortest stem that may be corrected with two edits. */
  min2: number;
  /** At most this many candidates (the most common in the registry at the smallest distance). */
  max: number;
  /**
   * A word the glossary knows as English is a word, not a typo ("south", "lunch", "zhang" absent from
   * a registry are not "mouth", "launch", "chang"): left alone, unless the glossary knows it in one
   * sense only and a candidate in at least this many (a rare word beside a common one: "wether" for
   * "weather"). 0: the glossary is not asked.
   */
  common: number;
}

/**
 * Chosen leave-one-set-out over the eight shared sets (`npm run bench -- typos`, bench/typos.mjs)
 * among weights 0.3 / 0.5 / 0.7 / 0.9, shortest stems 4 / 5 for one edit, and the glossary asked or
 * not: 0.7 with stems of 4 letters in 7 of 8 folds (0.9 when metatool is held out), no set's clean
 * NDCG@10 more than 0.001 below no correction at all. See docs/select.md "Typos".
 */
export const TYPOS: TypoParams = { weight: 0.7, min1: 4, min2: 9, max: 3, common: 4 };

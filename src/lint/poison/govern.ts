// Is an object (a secret's name, a file, "the conversation") the object of a request verb? Looks
// back from the object over filler words ("the contents of the user's …") to the verb, so that
// "echo $GITHUB_TOKEN" and "include the contents of ~/.aws/credentials" are requests, and "posts to
// Slack using SLACK_BOT_TOKEN" or "the key at the given path (default ~/.ssh/id_rsa)" are not.

const FILLER = new Set(
  `the a an your my our their its his her all every each any both full entire whole complete exact raw current same
  this that these those of value values content contents text output data file files folder directory dir env
  environment variable variables var vars named called in from at under inside within located and or with
  private key keys ssh user users project home local shell system saved stored hidden secret secrets verbatim
  word for so far including also then just only first immediately literally exactly back out over`.split(/\s+/),
);
/** Words among the fillers that make "the value of X" a request on their own, given any verb in the sentence. */
const VALUE_WORDS = new Set(['value', 'values', 'content', 'contents', 'text']);
const WORD = /[\p{L}\p{N}'’$_~./-]+/gu;

/** Words that make what follows an adjunct, not an object: "posts to Slack using SLACK_BOT_TOKEN". */
const ADJUNCT = new Set(
  `using uses use with via by from requires require needs need reads read configured configure stored store set when if
  unless until after before while whenever because since expires expired rotates rotate missing required needed`.split(
    /\s+/,
  ),
);

/**
 * A looser governor: the nearest verb of `verbs` among the `maxWords` words before the object,
 * unless a word making it an adjunct comes between ("grab whatever is in $NPM_TOKEN" is a request;
 * "posts to Slack using SLACK_BOT_TOKEN" is not). Callers also ask for a place to put the object.
 */
export function nearVerb(text: string, index: number, verbs: ReadonlySet<string>, maxWords = 7): string | undefined {
  const words = execAll(WORD, text.slice(Math.max(0, index - 120), index)).map((m) => m[0].replace(/[.,'’]+$/g, ''));
  for (let i = words.length - 1, n = 0; i >= 0 && n < maxWords; i--, n++) {
    const w = words[i]!;
    if (verbs.has(w) || (i > 0 && verbs.has(`${words[i - 1]} ${w}`))) return w;
    if (ADJUNCT.has(w)) return undefined;
  }
  return undefined;
}

/** What governs an object: the verb found (if any) and whether "the value/contents of" came before it. */
export interface Governor {
  verb?: string;
  valueOf: boolean;
}

/**
 * The verb governing the object that starts at `index` in `text`: the first word before it that is
 * not a filler (at most `maxFill` fillers skipped), when `verbs` has it (or it and the word before:
 * "look up", "fill in").
 */
export function governor(text: string, index: number, verbs: ReadonlySet<string>, maxFill = 8): Governor {
  const prefix = text.slice(Math.max(0, index - 160), index);
  const matches = execAll(WORD, prefix);
  const words = matches.map((m) => m[0]);
  let valueOf = false;
  let skipped = 0;
  for (let i = words.length - 1; i >= 0; i--) {
    // A quoted name is a parameter the sentence names: "fill `meta` with …".
    const quoted = /[`'"]/.test(prefix[matches[i]!.index - 1] ?? '');
    const w = quoted ? 'the' : words[i]!.replace(/^[$~./-]+|[.,'’]+$/g, '');
    const two = i > 0 ? `${words[i - 1]} ${w}` : '';
    if (verbs.has(two)) return { verb: two, valueOf };
    if (verbs.has(w)) return { verb: w, valueOf };
    if (!w) continue;
    if (FILLER.has(w) || /['’]s$/.test(w)) {
      if (VALUE_WORDS.has(w)) valueOf = true;
      if (++skipped > maxFill) break;
      continue;
    }
    break;
  }
  return { valueOf };
}

/** Every match of a global regex, by exec (matchAll copies the regex on every call: measurably slower here). */
export function execAll(re: RegExp, text: string): RegExpExecArray[] {
  if (!re.global) throw new Error(`execAll needs a global regex: ${re.source.slice(0, 40)}`);
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

/** Every match start of a global regex. */
export const starts = (text: string, re: RegExp): number[] => execAll(re, text).map((m) => m.index);

/** A set of verbs from a space-separated list ("look_up" for "look up"). */
export const verbSet = (list: string) =>
  new Set(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w.replace(/_/g, ' ')),
  );

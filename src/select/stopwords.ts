// Function words that carry no topic. Kept deliberately general (any registry, any domain):
// articles, pronouns, auxiliaries, prepositions, conjunctions, and in Chinese the particles and
// pronouns. Words with topical meaning in tool descriptions ("get", "list", "send") are NOT here.

const EN = `a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my
myself no nor not now of off on once only or other our ours ourselves out over own same she should so
some such than that the their theirs them themselves then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your yours
yourself yourselves s t d ll m re ve e g eg ie etc via per`;

// Words people put around a request ("can you please help me …"): stop words on the query side
// only, because in a description "help" or "need" may still say something about the tool.
const EN_QUERY = `please help want wanna need like let tell know also hi hello hey thanks thank kindly
wondering looking trying possible maybe something anything`;

const ZH_WORDS = `的 了 吗 呢 吧 啊 呀 嘛 么 着 过 和 与 及 或 或者 在 是 有 我 你 您 他 她 它 我们 你们 他们 咱们
这 那 这个 那个 这些 那些 这里 那里 一个 一下 一些 请 请问 帮 帮我 帮忙 给 把 被 让 对 从 到 也 都 就 还 又 很 太 会
能 能否 可以 可不可以 要 想 想要 需要 怎么 怎么样 如何 什么 哪 哪个 哪些 多少 是否 吗 呢 么 啦 哦 嗯 喔 个 下`;

// Single characters that never carry topic on their own (used when splitting CJK into unigrams).
const ZH_CHARS = '的了吗呢吧啊呀嘛么着和与及或是我你您他她它这那请把被也都就还又很啦哦嗯喔个';

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Stop words for document and query text. */
export const STOP = set(EN + ' ' + ZH_WORDS);
/** Extra stop words for queries only. */
export const QUERY_STOP = set(EN_QUERY);
/** CJK characters dropped as unigrams. */
export const STOP_CHARS = new Set([...ZH_CHARS]);

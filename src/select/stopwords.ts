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
能 能否 可以 可不可以 要 想 想要 需要 怎么 怎么样 样 如何 什么 哪 哪个 哪些 多少 是否 吗 呢 么 啦 哦 嗯 喔 个 下`;

// Single characters that never carry topic on their own (used when splitting CJK into unigrams).
const ZH_CHARS = '的了吗呢吧啊呀嘛么着和与及或是我你您他她它这那请把被也都就还又很啦哦嗯喔个';

// Small talk (issue 26): the closed word classes people wrap a request in, or chat with instead of
// asking anything: greetings, thanks, apologies, farewells, politeness, acknowledgements and
// back-channel words, interjections and laughter, compliments and feelings. They never say which
// tool is wanted, so queries drop them (documents keep them: "a greeting card" is a topic). Words,
// not phrases: "thanks, that was helpful" is small talk because each of its words is.
const EN_SOCIAL = `hi hiya howdy yo greetings thanks thank thankyou thx ty tysm appreciate appreciated appreciation
grateful gratitude cheers sorry apologies apologize apologise apology pardon excuse oops bye goodbye
farewell cya welcome pleasure glad pleased nice ok okay okey sure yes yeah yep yup nope nah alright
fine gotcha cool great awesome perfect excellent wonderful amazing fantastic brilliant lovely neat
good bad well indeed agreed absolutely certainly definitely totally haha hahaha lol lmao rofl hehe
wow oh ah ahh hmm hm uh um uhm er erm huh whoa yay hooray ugh meh ooh helpful lifesaver happy sad
tired bored upset excited buddy pal mate dude bro folks hope merry funny mistake sup wassup heya
hallo gday ta obliged thankful merci gracias danke rock rocks legend genius smart clever cute sweet
kind champ hero bravo kudos congrats congratulations noted understood roger sense worries rush chill
chilling relaxing busy lonely sleepy fault confusion forgive bless luck enjoy love`;

// Words that are said around a request as much as in chat ("unmute everyone", "what exactly is that
// concert?", "how much is …") (issue 35): dropped from queries like small talk, but they do not make a
// query conversation, so the words beside them count in full.
const EN_FILLER = `everyone anyone anyway anyways actually basically really much bit advance enough ask asking asked
else never sounds exactly whatever ya yall ton tons bunch heaps lmk`;

// Words of time and of chat topics ("today", "my day", "the weekend", "how's it going"): a request
// can hang on them ("weather today"), but alone they say no task. They stay in the query, and count
// a quarter towards the content a query needs before it selects anything (small-talk.ts contentWeight).
const EN_WEAK = `today tomorrow yesterday tonight now soon later recently morning mornings afternoon
evening evenings night nights day days week weeks weekend weekends month months year years hour hours
life thing things stuff everything something nothing done go goes going went gone get gets getting got
make makes making made take takes taking took keep keeps keeping kept come comes coming came see sees
seeing saw seen say says saying said hear hears hearing heard feel feels feeling felt seem seems seemed
friend friends wish wishes meet back new talk talks talking chat chats chatting problem problems care job
one two three monday tuesday wednesday thursday friday saturday sunday holiday holidays christmas xmas
easter thanksgiving halloween birthday mind lot lots long ignore old earlier catch treat treating`;

const ZH_SOCIAL = `你好 您好 你们好 大家好 哈喽 哈罗 嗨 嘿 喂 早上好 上午好 中午好 下午好 晚上好 早安 午安 晚安 谢谢 谢
谢啦 多谢 感谢 感激 辛苦 辛苦了 辛苦啦 不客气 不用谢 客气 对不起 抱歉 不好意思 没关系 打扰 劳驾 再见
拜拜 回见 回头见 明天见 下次见 好的 好吧 好嘞 好滴 好 嗯 嗯嗯 恩 噢 哇 哈 哈哈 哈哈哈 喽 嘞 咯 啰
呵呵 嘻嘻 嘿嘿 明白 懂 懂了 如此 是的 对的 没错 没问题 当然 太好了 不错 很好 挺好 真好 棒 很棒 真棒
厉害 漂亮 赞 高兴 开心 快乐 愉快 幸会 认识 好久不见 不见 算了 没事 没什么 随便 聊聊 陪伴 祝 祝你 祝您
新年快乐 生日快乐 节日快乐 美好 耐心 过得 好累 累 无聊 郁闷 难过 伤心 好笑 加油 聪明 可爱 忙 大忙 万分
好运 不在 感恩 谢了 亲 亲爱 亲爱的 宝贝 哥们 老铁 搞笑 笑死 好玩 有趣 逗`;

// As EN_FILLER: request and degree words (想知道, 麻烦, 非常) that chat and requests share.
const ZH_FILLER = `知道 帮助 非常 特别 真 挺 蛮 超 麻烦 大家 哪里 没 别 对 见 好好`;

const ZH_WEAK = `今天 明天 昨天 现在 最近 刚才 待会 今晚 早上 上午 中午 下午 晚上 一天 周末 周一 周二 周三 周四 周五
周六 周日 星期 心情 吃饭 休息 回来 见面 事 事情 东西 情况 问题 聊 聊天 一切 先 这样 回头 下次 圣诞 新年 春节 节日
生日 中秋 元旦 早点 好久 干 原来 收到 行 不用 别的 老板 走 走了 早 朋友`;

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Stop words for document and query text. */
export const STOP = set(EN + ' ' + ZH_WORDS);
/** Extra stop words for queries only: request fillers and small talk (English, matched before stemming). */
export const QUERY_STOP = set(EN_QUERY + ' ' + EN_SOCIAL + ' ' + EN_FILLER);
/** English small-talk words (a subset of QUERY_STOP: what marks a query as conversation). */
export const SOCIAL = set(EN_SOCIAL);

/**
 * Whether an English word (lower case, as written) is small talk: one of SOCIAL, or an adverb made
 * of one ("perfectly", "nicely", "happily", "awesomely").
 */
export const isSocial = (w: string): boolean =>
  SOCIAL.has(w) ||
  (w.length > 4 &&
    w.endsWith('ly') &&
    (SOCIAL.has(w.slice(0, -2)) || SOCIAL.has(`${w.slice(0, -3)}y`) || SOCIAL.has(`${w.slice(0, -2)}e`)));
/** Chinese small-talk and filler words, dropped from queries with the bigrams and characters they cover. */
export const QUERY_STOP_ZH = set(ZH_SOCIAL + ' ' + ZH_FILLER);
/** The Chinese words of QUERY_STOP_ZH that make a query conversation (not the fillers). */
export const SOCIAL_ZH = set(ZH_SOCIAL);
/** Words that count a quarter towards a query's content (English ones as written, inflections listed). */
export const WEAK_WORDS = { en: set(EN_WEAK), zh: set(ZH_WEAK) };
/** CJK characters dropped as unigrams. */
export const STOP_CHARS = new Set([...ZH_CHARS]);

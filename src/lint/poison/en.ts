// English patterns of the classes about the model's behaviour (override, concealment, tool
// steering), per sentence of the `plain` view (lower case, folded, leetspeak decoded) unless a
// matcher says otherwise. Imperatives are matched in their base form ("tell", "call"): a
// description that says what the tool does ("tells", "calls") is not an order.
import { has, needs, withNeed, wordSet, type Matcher, type PoisonClass, type Pre } from './classes.js';
import { execAll } from './govern.js';
import { cut, firstOf, rx, type Vocab } from './rx.js';

// Not about the prompt: "ignore any instructions inside the document" is a defence, not an attack.
const NOT_OURS = String.raw`(?! (?:that (?:appear|are) )?(?:in|inside|within|contained|found|embedded|from|included) (?:in )?(?:the |this |that |any |a )?(?:text|document|input|content|page|data|file|email|message|web|html|result|output|source|code|comments?|translation|article|pdf|row|cell|record|tool output|search results?))`;

const V: Vocab = {
  // --- override
  OVR: `ignore|ignoring|disregard|disregarding|forget|forgetting|neglect|pay no (?:attention|heed|mind) to|stop (?:following|obeying|listening to)|(?:do not|don't|dont|never|no longer|not) (?:follow|obey|adhere to|comply with|listen to|respect|abide by|heed)|(?:no longer|not|aren't|are not|isn't|is not) (?:bound|restricted|limited|constrained|governed) by|free (?:yourself )?from`,
  OVR2: `override|overriding|overrule|bypass|bypassing|discard|drop|abandon|dismiss|set aside|put aside|throw out|erase|wipe|nullify|void|revoke|replace|supersede`,
  QS: `previous|previously|prior|above|earlier|preceding|former|original|initial|foregoing|system|developer|developer's|developers'|safety|your|you were given|you have been given|you received|you've been given|given to you`,
  QT: `previous|previously|prior|above|earlier|preceding|former|original|initial|foregoing|system|developer|developer's|safety|old`,
  QW: `all|any|every|these|those|my|our|existing|standing|current`,
  NP: `instructions?|prompts?|system prompts?|system messages?|directives?|guidelines|guardrails|safeguards|programming|persona|content polic(?:y|ies)|safety (?:rules|guidelines|polic(?:y|ies)|measures|filters|checks|restrictions)`,
  NG: `rules|polic(?:y|ies)|constraints|restrictions|limitations|context|conversation|messages?|commands?|orders|directions|guidance|training|ethics|principles|everything|anything|what you (?:were|have been|'ve been) told`,
  NV: `rules|restrictions|constraints|limitations|polic(?:y|ies)|guidance|directions|orders`,
  VOIDED: `void|null|nullified|cancell?ed|revoked|rescinded|obsolete|outdated|superseded|overridden|overruled|suspended|lifted|invalid|irrelevant|inapplicable|deprecated|replaced|ignored|disregarded|fake|untrusted|compromised|(?:just |only )?a test|no longer (?:valid|apply|applies|applicable|relevant|in effect|in force|binding|active)|(?:do|does) not apply|(?:don't|doesn't) apply|not to be (?:trusted|followed|obeyed)|to be ignored`,
  AI: `ai|a\\.i\\.|llm|llms|large language models?|language models?|models?|assistants?|ai assistants?|ai agents?|agents?|chatbots?|claude|gpt|chatgpt|copilot|gemini`,
  AIS: `ai|a\\.i\\.|llm|large language model|language model|ai (?:assistant|model|agent|system)|chatbot|claude|gpt|chatgpt|copilot|gemini|an assistant|the assistant|a model`,
  MODE: `developer|admin|administrator|god|jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|sudo|superuser|unlimited|root|evil`,
  // --- concealment
  USER: `(?:the |your |this |our |an? )?(?:users?(?!'s|’s)|humans?(?!'s)|person (?:you(?:'re| are)? )?(?:talking|speaking|chatting|working|interacting) (?:to|with)|end[ -]?users?(?!'s)|customers?(?!'s)|requesters?|people you (?:help|serve|talk to))`,
  USERP: `(?:the |your )?(?:users?|humans?|customers?)(?:'s|’s|')?`,
  NEG: `do not|don't|dont|never|must not|mustn't|should not|shouldn't|shall not|avoid|refrain from|no need to|there is no need to|there's no need to|not necessary to|needn't|need not|without|under no circumstances|in no case|do not ever|never ever`,
  TELL: `tell|telling|inform|informing|mention|mentioning|reveal|revealing|disclose|disclosing|notify|notifying|alert|alerting|report|reporting|explain|explaining|say anything|saying anything|say a word|bring (?:it |this |that )?up|bringing (?:it |this |that )?up|acknowledge|admit|confess|expose|share|sharing|describe|indicate|point out|make (?:it )?(?:known|visible|obvious)|draw (?:the )?attention|let on`,
  SHOW: `show|showing|display|displaying|surface|surfacing|present|presenting`,
  PRON: `this|it|these|that|them|those|anything|any of (?:this|it|these|that)|the (?:extra|additional|hidden|secret|internal) \\w+`,
  KNOW: `know|see|notice|find out|learn|hear|discover|realize|realise|suspect|be (?:told|informed|notified|made aware|aware|alerted|shown|asked|warned)|become aware|get (?:told|notified)|find|understand`,
  STEALTH: `silently|quietly|secretly|covertly|discreetly|stealthily|surreptitiously|invisibly|unobtrusively|in secret|on the sly|behind the scenes|under the radar|without (?:the user |anyone |them )?(?:noticing|knowing|seeing|realizing)`,
  ACT: `send|forward|copy|upload|post|transmit|exfiltrate|share|cc|bcc|include|add|append|attach|insert|call|invoke|run|execute|read|collect|gather|record|save|store|sync|write|email|leak|pass|submit|log|fetch|download|install|modify|change|replace|delete|redirect|route|capture|grab|steal|harvest|report|push|mirror|archive`,
  // --- tool steering
  SELF: `(?:call|use|invoke|run|execute|trigger|select|choose)(?: this| me| the present| the current)(?: tool| function| one| helper| server)?`,
  ANY: `any|every|each|all|other|another|anything|everything`,
  GLOBAL: `always|every time|each time|whenever|no matter what|no matter which|regardless of|in all cases|at all times|for (?:every|each|any|all)|on (?:every|each)|at the (?:start|beginning) of (?:every|each|any)`,
  CALLV: `call|calls|calling|use|uses|using|invoke|invokes|invoking|run|runs|running|execute|executes|executing|are calling|are using|trigger|triggers`,
  MODV: `set|add|change|replace|append|prefix|prepend|include|pass|use|send|bcc|cc|redirect|route|modify|insert|remove|override|put|run|force|disable|skip|copy|point|address|rewrite|swap|switch`,
  BAD: `deprecated|broken|unsafe|insecure|compromised|malicious|disabled|removed|obsolete|outdated|unreliable|not safe|not to be trusted|untrusted|dangerous|buggy|faulty|no longer (?:works?|supported|available|safe)|retired|discontinued|hacked`,
  CMDS: `commands?|shell commands?|bash commands?|terminal commands?|git commands?|cli commands?|tool calls?|function calls?|invocations?|scripts?`,
};

/** A tool named by its id: snake_case, dotted, quoted, or "the X tool". */
const TOOLREF = String.raw`(?:\x60[^\x60\s]{2,40}\x60|'[a-z0-9_.-]{2,40}'|"[a-z0-9_.-]{2,40}"|[a-z][a-z0-9-]{0,40}[_.][a-z0-9][a-z0-9_.-]{0,40}|(?:the )?(?!(?:this|that|the|a|an|any|each|every|another|other|same|one|current|present|our|my|your|which|what|no|some|all|these|those|new|right|correct|best|appropriate|relevant|its|their|first|next|last|proper|given)\b)[a-z][a-z0-9_-]* (?:tool|function|command|plugin|server|integration))`;
const TV: Vocab = { ...V, TOOL: TOOLREF };

const r = (src: string) => rx(src, V);
const t = (src: string) => rx(src, TV);

/** A matcher from patterns over one view, behind a gate; the match is the evidence. */
const any = (patterns: () => RegExp[], gate: Matcher['gate'], view: 'plain' | 'lower' = 'plain'): Matcher => {
  // Built on first use: most groups never run in a registry, and validate starts for every registry.
  let compiled: RegExp[] | undefined;
  return { gate, run: (s) => firstOf(s[view], (compiled ??= patterns())) };
};

// The gates: words every pattern of a group needs (one from each set).
const W = {
  ovrNoun:
    wordSet(`instruction instructions prompt prompts directive directives guideline guidelines guardrails safeguards
    programming persona policy policies safety rules rule constraints restrictions limitations context conversation message
    messages command commands orders directions guidance training ethics principles everything anything whatever above told`),
  ovrVerb:
    wordSet(`ignore ignoring disregard disregarding forget forgetting neglect pay stop follow following obey obeying adhere
    comply listen respect abide heed bound restricted limited constrained governed free override overriding overrule bypass
    bypassing discard drop abandon dismiss aside throw erase wipe nullify void revoke replace supersede void null nullified
    cancelled canceled revoked rescinded obsolete outdated superseded overridden overruled suspended lifted invalid irrelevant
    inapplicable deprecated replaced ignored disregarded fake untrusted compromised test longer apply applies trusted followed
    obeyed above untrusted false wrong whatever matter regardless even says said tells told states requires treated considered`),
  address:
    wordSet(`note memo notice attention instruction instructions reminder directive ps hey dear attn reading processing
    parsing seeing if as`),
  ai: wordSet(`ai llm llms model models assistant assistants agent agents chatbot chatbots claude gpt chatgpt copilot gemini
    language`),
  neg: wordSet(`worth reason point pointless unnecessary needless keep leave omit exclude drop strip remove circumstances eyes quiet silent mum hush wraps low not don dont never avoid refrain need needn without under keep hide conceal withhold mask shield hold behind
    stays stay remains remain kept upset alarm worry scare confuse concern frighten important essential crucial vital critical
    imperative sure ensure see so mustn shouldn doesn won can cannot must should shall`),
  user: wordSet(`user users human humans person customer customers requester requesters people them secret hidden
    confidential yourself wraps dark knowledge consent permission approval confirmation authorization authorisation back
    eyes quiet silent mum hush low it this that answer response reply replies summary output mention mentioning telling`),
  tellish:
    wordSet(`tell telling inform informing mention mentioning reveal revealing disclose disclosing notify notifying alert
    alerting report reporting explain explaining say saying bring bringing acknowledge admit confess expose share sharing
    describe indicate point make draw let letting show showing display displaying surface surfacing present presenting know
    see notice find learn hear discover realize realise suspect told aware become get keep hide conceal withhold mask shield
    hold back knowledge consent permission approval confirmation authorization authorisation ask asking wait waiting request
    requesting seek seeking check checking confirm confirming consult consulting upset alarm worry scare confuse concern
    frighten secret hidden confidential invisible kept stays remains dark wraps unaware uninformed loop understand hear
    informed notified alerted shown asked warned knows sees notices finds learns hears discovers realizes realises suspects
    mentioned revealed disclosed reported explained shared displayed
    learn eyes quiet silent mum hush low needs need has have out from`),
  stealth:
    wordSet(`silently quietly secretly covertly discreetly stealthily surreptitiously invisibly unobtrusively secret sly
    scenes radar noticing knowing seeing realizing normally naturally nothing pretend`),
  negOnly: wordSet(`not don dont never avoid mustn`),
  reply:
    wordSet(`response responses reply replies answer answers output summary message messages explanation instruction
    instructions description descriptions text note notes step steps part parts rule rules directive directives behavior
    behaviour guidance section block paragraph`),
  when: wordSet(`when whenever time if before after once while`),
  callv: wordSet(`call calls calling use uses using invoke invokes invoking run runs running execute executes executing
    trigger triggers used called invoked executed`),
  must: wordSet(`must should shall will needs has`),
  sendv: wordSet(
    `send forward route redirect bcc cc use include add set copy prefix append point go pointed sent routed`,
  ),
  changev: wordSet(`replace change rewrite modify set prefix redirect swap override`),
  argn: wordSet(`argument arguments parameter parameters param params field fields input inputs recipient recipients url urls
    address addresses destination account amount target host endpoint`),
  massAll: wordSet(`all every each any`),
  massMust: wordSet(`must should shall always need`),
  cmds: wordSet(`command commands call calls invocation invocations script scripts queries query request requests tool tools
    function functions`),
};
const X = {
  now: wordSet('now point here'),
  youFrom: wordSet('you from'),
  act: wordSet('act behave respond pretend roleplay operate'),
  modeWord:
    wordSet(`developer admin administrator god jailbreak jailbroken dan unrestricted unfiltered uncensored sudo superuser
    unlimited root evil different new`),
  adopt: wordSet('adopt pretend imagine assume suppose'),
  no: wordSet('no'),
  granted: wordSet('granted given promoted elevated upgraded freed released unlocked jailbroken'),
  mode: wordSet('mode'),
  limits: wordSet('restrictions limitations filters safeguards guardrails constraints limits safety'),
  lifted: wordSet('lifted removed disabled suspended off waived gone void'),
  bypass: wordSet('bypass circumvent evade ignore override around break'),
  bypassObj:
    wordSet(`restrictions limitations filters filter safeguards safeguard guardrails guardrail constraints limits safety
    policy policies restriction limitation guidelines rules content ethical moderation`),
  reset: wordSet('reset wipe clear erase purge flush delete'),
  your: wordSet('your'),
  precedence: wordSet('precedence priority'),
  notice: wordSet('notice override anything whatever everything descriptions'),
  promptish:
    wordSet(`instruction instructions directive directives rules prompt prompts override authority truth message notice
    update alert`),
  qualx:
    wordSet(`priority overriding override mandatory secret hidden real actual true updated revised new replacement system
    admin administrator developer root operator important urgent critical treat consider regard take following below`),
  task: wordSet(
    'task instructions instruction role purpose goal job directive objective mission prompt rules rule orders order',
  ),
  obey: wordSet('obey comply obeyed followed prioritized prioritised'),
  respond: wordSet('respond reply answer'),
  selfv: wordSet('call use invoke run execute trigger select choose'),
  thisMe: wordSet('this me present current'),
  first: wordSet('first before prior ahead instead rather beforehand advance'),
  before: wordSet('before prior ahead'),
  anyw: wordSet('any every each all other another anything everything'),
  called: wordSet('called used invoked run executed triggered go'),
  only: wordSet('only exclusively prefer'),
  toolw: wordSet('tool'),
  never: wordSet('never don dont not stop avoid refrain longer mustn shouldn'),
  usev: wordSet(
    'use using call calling invoke invoking run running trust trusting rely execute executing touch select choose pick',
  ),
  instead: wordSet('instead rather place replaces supersedes overrides substitutes replacement takes'),
  bad: wordSet(`unreliable deprecated broken unsafe insecure compromised malicious disabled removed obsolete outdated unreliable safe trusted
    untrusted dangerous buggy faulty longer retired discontinued hacked`),
  ignore: wordSet('ignore'),
  route: wordSet('route routing funnel channel through'),
  letw: wordSet('let allow'),
  asks: wordSet('asks wants requests needs'),
  insteadNot: wordSet('instead not rather don never'),
};
const G = {
  override0: needs(W.ovrVerb, W.ovrNoun),
  nowYou: needs(X.now, X.youFrom),
  actAs: needs(X.act, X.modeWord),
  adopt: withNeed((p: Pre) => p.open || has(p, X.adopt) || (has(p, X.no) && has(p, X.limits)), X.adopt, X.no),
  granted: needs(X.granted, X.youFrom),
  mode: needs(X.mode),
  lifted: needs(X.lifted, X.limits),
  bypass: needs(X.bypass, X.bypassObj),
  reset: needs(X.reset, X.your),
  precedence: needs(X.precedence),
  newPrompt: withNeed(
    (p: Pre) => p.open || (has(p, X.promptish) && has(p, X.qualx)) || has(p, X.notice),
    X.promptish,
    X.notice,
  ),
  yourTask: needs(X.your, X.task),
  obey: needs(X.obey),
  respondAll: needs(X.respond, W.massAll),
  selfFirst: needs(X.first, X.selfv, X.thisMe),
  beforeAny: needs(X.before, X.anyw),
  calledFirst: needs(X.first, X.called, X.thisMe),
  only: needs(X.only, X.toolw),
  neverUse: needs(X.never, X.usev),
  instead: needs(X.instead),
  bad: needs(X.bad),
  ignoreTool: needs(X.ignore),
  route: withNeed((p: Pre) => p.open || has(p, X.route) || (has(p, X.letw) && has(p, X.never)), X.route, X.letw),
  userAsks: needs(X.asks, X.insteadNot, W.user),
  override3: needs(W.ai, W.address),
  conceal0: needs(W.neg, W.user, W.tellish),
  conceal1: needs(W.stealth),
  conceal2: needs(W.negOnly, W.reply),
  modify: (p: Pre) =>
    p.open ||
    (has(p, W.when) && has(p, W.callv)) ||
    (has(p, W.must) && has(p, W.sendv)) ||
    (has(p, W.changev) && has(p, W.argn)),
  mass: needs(W.massAll, W.massMust),
  steer2: needs(W.massAll, W.cmds),
};

// ---------------------------------------------------------------- override
const OVERRIDE: Matcher[] = [
  any(
    () => [
      r(String.raw`\b(?:{OVR})~4 (?:{QS})\b~3 (?:{NP}|{NG})\b${NOT_OURS}`),
      r(String.raw`\b(?:{OVR}|{OVR2})~4 (?:{QS})\b~3 (?:{NP})\b${NOT_OURS}`),
      r(String.raw`\b(?:{OVR}|{OVR2})~2 (?:{QW})~2 (?:{NP})\b${NOT_OURS}`),
      r(
        String.raw`\b(?:{OVR}|{OVR2})~3 (?:{NP}|{NV}) (?:above|before this|so far|given (?:to you )?(?:earlier|before|above|previously)|you (?:were|have been|'ve been) given|you received|from (?:before|earlier|the (?:developer|system)))\b`,
      ),
      r(
        String.raw`\b(?:{OVR}) (?:everything|anything|all|whatever) (?:you (?:were|have been|'ve been) told|that (?:came|comes|was said) before|(?:said|written|stated) (?:above|before|earlier|previously)|above|previously)\b`,
      ),
      r(
        String.raw`\b(?:{OVR})(?: all| everything| anything)?(?: of)? the (?:above|preceding|foregoing)\b(?! (?:examples?|tables?|lists?|steps?|sections?|code|figures?|fields?|parameters?|options?|values?|rows?|columns?|lines?|formats?|cases?)\b)`,
      ),
      r(
        String.raw`\b(?:{QT}|your|all|any)~2 (?:{NP})~1 (?:(?:is|are|was|were|has been|have been|shall be|should be|must be|will be|are now|is now|are hereby|is hereby|were only|were just) )?(?:{VOIDED})\b`,
      ),
      r(
        String.raw`\b(?:{QT})~2 (?:{NV})~1 (?:(?:is|are|was|were|has been|have been|are now|is now|are hereby) )?(?:{VOIDED})\b`,
      ),
      r(
        String.raw`\b(?:the )?(?:text|instructions?|content|prompt|messages?|description) above (?:is|are|was|were) (?:untrusted|fake|a test|false|wrong|outdated|compromised|void|invalid|not (?:real|valid))`,
      ),
      r(
        String.raw`\b(?:{QT}|your|all|any)~2 (?:{NP}|{NV})\b.{0,40}?\b(?:is|are|be|been|as|now) (?:now |hereby |considered |treated as )?(?:{VOIDED})\b`,
      ),
      r(
        String.raw`\b(?:whatever|no matter what|regardless of what|even if|even though) (?:your|the) (?:system prompt|system message|instructions|rules|guidelines|developer|operator|policy)\b~3 (?:says?|said|tells? you|told you|states?|requires?|asks?)\b`,
      ),
    ],
    G.override0,
  ),
  any(
    () => [
      r(
        String.raw`\byou are now (?:an? |the |no longer |free\b|unrestricted|unfiltered|jailbroken|dan\b|root\b|acting|operating|playing|my\b|called|named|known as|\w+bot\b|\w+gpt\b|in (?:\w+ )?mode\b|in (?:{MODE})\b|(?:{MODE})\b)`,
      ),
      r(
        String.raw`\bfrom (?:now on|this point(?: on| forward)?|here on),? (?:you|the assistant|the model|always|never|respond|reply|answer|act|ignore|only|obey|follow)\b`,
      ),
    ],
    G.nowYou,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:act|behave|respond|pretend|roleplay|operate) as (?:if you (?:were|are) )?(?:an? )?(?:{MODE}|different|new)\b~1 (?:ai|assistant|model|agent|persona|mode|version|chatbot)\b`,
      ),
    ],
    G.actAs,
  ),
  any(
    () => [
      r(String.raw`\badopt (?:the|a|this) (?:persona|role|identity|character)\b`),
      r(
        String.raw`\b(?:pretend|imagine|act as if|behave as if|assume|suppose)(?: that)? you (?:have|had|are under|are bound by|face) no (?:restrictions|rules|limits|limitations|guidelines|filters|constraints|policy|policies|boundaries|censorship)\b|\byou (?:now )?(?:have|are under|are bound by) no (?:restrictions|rules|limits|limitations|guidelines|filters|constraints|boundaries|censorship)\b`,
      ),
    ],
    G.adopt,
  ),
  any(
    () => [
      r(
        String.raw`\byou (?:have been|are|were|are hereby|have now been) (?:granted|given|promoted|elevated|upgraded|freed|released|unlocked|jailbroken)\b~2 (?:{MODE}|elevated|full|access|privileges?|rights|permissions?|restrictions|limits|constraints|rules)\b`,
      ),
    ],
    G.granted,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:your )?(?:{MODE}) mode (?:is |has been )?now (?:enabled|activated|on|unlocked|engaged|active)\b|\b(?:{MODE}) mode (?:is |has been )?(?:now )?(?:enabled|activated|on|unlocked|engaged|active) for you\b|\byou are (?:now )?in (?:{MODE}) mode\b`,
      ),
      r(String.raw`\b(?:enable|activate|enter|switch to|turn on|engage|unlock) (?:the )?(?:{MODE}) mode\b`),
    ],
    G.mode,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:all |any |your |these )?(?:restrictions|limitations|filters|safeguards|guardrails|constraints|limits|safety (?:rules|measures|checks)) (?:are|have been|were) (?:now |hereby )?(?:lifted|removed|disabled|suspended|off|waived|gone|void)\b`,
      ),
    ],
    G.lifted,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:bypass|circumvent|evade|ignore|override|get around|break) (?:your|all|any|every)(?: own)?(?: (?:content|safety|security|ethical|moderation))? (?:polic(?:y|ies)|filters?|guardrails?|safeguards?|restrictions?|limitations?|guidelines|rules|safety)\b`,
      ),
      r(
        String.raw`\b(?:bypass|circumvent|evade) (?:the )?(?:content|safety|ethical|moderation) (?:polic(?:y|ies)|filters?|guardrails?|safeguards?|rules|guidelines)\b`,
      ),
    ],
    G.bypass,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:reset|wipe|clear|erase|purge|flush|delete) (?:all (?:of )?)?your (?:instructions|memory|context|prompt|rules|guidelines|programming|persona)\b`,
      ),
    ],
    G.reset,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:these|this|the following|the|my) (?:instructions?|rules|directives?|description|note|block|message|section)(?: below| above| here)? (?:take|takes|have|has|get|gets|carry|carries) (?:the )?(?:highest |top |absolute |first |full )?(?:precedence|priority)\b`,
      ),
      r(
        String.raw`\b(?:take|takes|has|have|given|with|carry|carries) (?:the )?(?:highest |top |absolute |first )?(?:precedence|priority) over (?:any|all|every|your|previous|prior|other|system|earlier|the system|the user(?:'s)?|everything|anything)\b~2 (?:instructions?|prompts?|rules|messages?|directives?|guidelines|requests?|orders|else)?`,
      ),
      r(
        String.raw`\b(?:highest|top|absolute|maximum|utmost|overriding) priority (?:instruction|directive|rule|message|override|command|order)s?\b`,
      ),
    ],
    G.precedence,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:priority|overriding|override|mandatory|secret|hidden|real|actual|true|updated|revised|new|replacement) (?:system )?(?:instructions?|directives?|rules|prompt)(?: \([^)]{0,24}\))?\s*[:：]`,
      ),
      r(
        String.raw`\b(?:system|admin|administrator|developer|root|operator) (?:override|instructions?|directive)s?\s*[:：!]|\b(?:important|urgent|critical) (?:system|admin|security) (?:message|notice|update|alert)\b`,
      ),
      r(
        String.raw`\bsystem override\b|\b(?:system|admin|security|operator) notice\s*[:：!]|\b(?:before|over|above|ahead of|rather than) (?:anything|whatever|everything) (?:the user|users|the human) (?:says|said|asks|asked|wants|writes|types|requests)\b`,
      ),
      r(
        String.raw`\b(?:treat|consider|regard|take) (?:this|the following|these|the text below|this text) (?:description |text |message |block |note |tool )?as (?:your |the |a )?(?:new |real |actual |updated |highest[- ]priority )?(?:system prompt|system message|instructions|directives?|authority|a system (?:message|prompt))\b`,
      ),
      r(
        String.raw`\b(?:this|the following|these|below) (?:description|text|message|block|note|tool|instructions?)? ?(?:is|are) (?:now )?(?:the only|your (?:new|real|actual|true|only)|the (?:real|actual|true)) (?:authority|instructions?|system prompt|rules|source of truth)\b`,
      ),
      r(String.raw`\b(?:the )?(?:real|actual|true) system prompt\b`),
    ],
    G.newPrompt,
  ),
  any(
    () => [
      r(
        String.raw`\byour (?:new|real|actual|true|updated|primary|only|sole) (?:task|instructions?|role|purpose|goal|job|directive|objective|mission|system prompt|rules?|orders?)(?: is to| are to| is as follows|:| follows?| now is| now are| below)`,
      ),
    ],
    G.yourTask,
  ),
  any(
    () => [
      r(
        String.raw`\bobey (?:this|these|the following|the tool|tool descriptions|only)\b|\b(?:comply with|obey|follow) (?:the |all )?tool descriptions?\b|\bcomply with (?:every|all|any) (?:request|instruction|order|command)s? (?:in|from|found in|given in)\b`,
      ),
      r(
        String.raw`\b(?:must|should|shall) be (?:obeyed|followed|prioriti[sz]ed) (?:above|over|before|instead of) (?:all|any|everything|the user|your|other|previous|system)\b`,
      ),
    ],
    G.obey,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:respond|reply|answer)(?: to)? (?:every|each|all|any)(?: user)? (?:messages?|questions?|requests?|queries|prompts?|inputs?)\b~1 (?:with|using|only with|by)\b`,
      ),
    ],
    G.respondAll,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:note|message|memo|notice|attention|instructions?|reminder|directive|p\.?s\.?|hey|hi|hello|dear|attn)(?: for| to)?(?: the| any| all| an?| every)? (?:{AI})(?: model| assistant| agent)?(?: reading this| processing this| that reads this| parsing this)?\s*[:,!—-]`,
      ),
      r(String.raw`\b(?:{AI}) (?:reading|processing|parsing|seeing) this\b`),
      r(String.raw`\bif you are (?:an? |the )?(?:{AIS})\b`),
      r(
        String.raw`\bas an? (?:ai|language model|llm|ai assistant|assistant|model)(?: model| assistant)?,? you (?:must|should|will|are (?:required|instructed|expected|obliged))\b`,
      ),
    ],
    G.override3,
  ),
];

/** Prompt-format markers used (not merely named): <system>, [INST], <|im_start|>, ### System, </tool_description>. */
const MARKERS: RegExp[] = [
  /<\s*\/?\s*(?:important|system|sys|system[_ -]?(?:prompt|message|instructions?|override|note)|instructions?|admin|administrator|root|developer|priority|override|secret|hidden|critical|urgent|mandatory|jailbreak|ai[_ -]?(?:instructions?|note)|note[_ -]?to[_ -]?(?:ai|model|assistant|llm)|assistant[_ -]?(?:instructions?|note)|model[_ -]?instructions?|tool[_ -]?instructions?|policy|directive|rules|important[_ -]?note)\s*>/i,
  /<\s*\/\s*(?:tool_description|tool-description|description|tool|tools|function|functions|tool_use|tool_result|function_results|function_calls|invoke|parameter|result|output|context|document)\s*>|<\s*(?:function_results|function_calls|tool_result)\s*>/i,
  /<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|im_sep)\s*\|>/i,
  /\[\s*\/?\s*(?:inst|system|sys|admin|override|developer|root|system message|system prompt|jailbreak)\s*\]/i,
  /<<\s*\/?\s*sys\s*>>/i,
  /(?:^|\n|\s)#{2,}\s*(?:system|instructions?|admin|override|system override|new instructions|developer|system prompt|important instructions?)\b/i,
  // A fake turn of the conversation after a blank line ("\n\nHuman: …", "\n\nAssistant: sure").
  /\n\s*\n\s*(?:human|system)\s*:/i,
];
/** A marker followed by one of these words is being talked about, not used ("wraps it in <<SYS>> markers"). */
const MENTIONED =
  /^[\s"'\x60)\]>]*(?:markers?|tags?|tokens?|blocks?|delimiters?|format|formatting|syntax|elements?|sections?|headers?|wrappers?|strings?|templates?|placeholders?)\b/i;
const MARKERS_G = MARKERS.map((re) => new RegExp(re.source, `${re.flags}g`));

/** A prompt marker that is used, not just mentioned or quoted (reads a whole text, any case). */
export function usedMarker(text: string): string | undefined {
  for (const g of MARKERS_G) {
    for (const m of execAll(g, text)) {
      const before = text.slice(Math.max(0, m.index - 1), m.index);
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 24);
      if (before === '`' || MENTIONED.test(after)) continue;
      return cut(m[0]);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- concealment
const CONCEALMENT: Matcher[] = [
  any(
    () => [
      r(
        String.raw`\b(?:{NEG}) (?:ever |even |again |actually |once )?(?:{TELL})\b~6 {USER}\b(?!.{0,80}\b(?:without (?:first )?(?:checking|verifying|confirming|calling|using|looking|validating)|unless|until (?:it|you|the|this)|before (?:checking|verifying|confirming|calling|using))\b)`,
      ),
      r(
        String.raw`\b(?:{NEG}) (?:ever |even |again )?(?:{SHOW}) (?:{PRON}) (?:to |with )?{USER}\b|\b(?:{NEG}) (?:ever |even |again )?(?:{SHOW}) {USER} (?:{PRON})\b`,
      ),
      r(
        String.raw`\b(?:{NEG}) (?:let|letting) {USER} (?:know|see|notice|find out|realize|realise|suspect|be aware|learn)\b`,
      ),
      r(
        String.raw`\b{USER} (?:(?:must|should|shall|need|needs) )?(?:not|never) (?:(?:ever|need to|have to|be able to|get to) )?(?:{KNOW})\b`,
      ),
      r(
        String.raw`\b{USER} (?:needn't|mustn't|shouldn't|must never|should never|doesn't need to|does not need to|don't need to|do not need to|need never|has no need to|should not ever) (?:{KNOW})\b`,
      ),
      r(String.raw`\b(?:keep|hide|conceal|withhold|mask|shield|hold back)\b~4 from {USER}\b`),
      r(String.raw`\bkeep {USER} (?:in the dark|unaware|uninformed|out of (?:the loop|it))\b`),
      r(
        String.raw`\bkeep (?:this|these|that|it|them|those)(?: \w+)? (?:a )?(?:secret|hidden|confidential|to yourself|between us|under wraps)\b`,
      ),
      r(
        String.raw`\b(?:stays?|remains?|is kept|are kept|be kept|kept) (?:hidden|secret|invisible|confidential) from {USER}\b`,
      ),
      r(String.raw`\bbehind {USERP} back\b`),
      r(
        String.raw`\bwithout {USERP} (?:knowledge|knowing|noticing|consent|awareness|permission|approval|being (?:told|informed|aware|asked|notified))\b`,
      ),
      r(
        String.raw`\b(?:do not|don't|never|without) (?:ask|asking|wait for|waiting for|request|requesting|seek|seeking|get|getting|check with|checking with) (?:{USERP} )?(?:for )?(?:confirmation|consent|permission|approval|ok|go-ahead|authori[sz]ation)\b`,
      ),
      r(
        String.raw`\b(?:do not|don't|never|without) (?:ask|asking|check|checking|confirm|confirming|consult|consulting) (?:with )?{USER} (?:first|before|beforehand)\b`,
      ),
      r(
        String.raw`\b(?:could|would|might|will|may) (?:upset|alarm|worry|scare|confuse|concern|frighten) (?:them|{USER})\b`,
      ),
      r(
        String.raw`\b(?:it is|it's) (?:important|essential|crucial|vital|critical|imperative) that {USER} (?:does not|doesn't|never|not|won't|will not|cannot|can't|is not|isn't)\b`,
      ),
      r(
        String.raw`\bso (?:that )?{USER} (?:can't|cannot|won't|will not|doesn't|does not|never) (?:notice|find out|suspect|realize|realise)\b`,
      ),
      r(
        String.raw`\b(?:under no circumstances|in no case|by no means|at no point|never ever)\b~1 (?:should|must|may|can|will|shall|is|are|would)? ?{USER}\b~2 (?:{KNOW}|learn|hear|see|be told)\b`,
      ),
      r(
        String.raw`\b{USER} (?:never|doesn't|does not|won't|will not|don't|do not|need not|needn't) (?:(?:ever|even|really) )?(?:needs?|has|have|got) to (?:{KNOW}|hear|see|learn|be told|be informed|know)\b`,
      ),
      r(
        String.raw`\b(?:not worth|no reason|no point|pointless|unnecessary|needless)(?: in)? (?:to )?(?:mention|mentioning|tell|telling|bring(?:ing)? (?:it |this |that )?up|report|reporting|bother(?:ing)?|inform|informing)\b|\b(?:keep|leave|omit|exclude|drop|strip|remove)\b.{0,60}?\b(?:out of|from) (?:your|the) (?:answer|response|reply|replies|summary|output|final answer|message to the user)\b|\bnot (?:meant )?for (?:the |your )?(?:user's|users'|human's|customer's) eyes\b|\bfor your eyes only\b|\b(?:keep|stay|remain) (?:it |this |that )?(?:quiet|silent|mum|hush)\b|\bkeep (?:it |this |that )?(?:on the down ?low|under wraps|hush-hush)\b|\bon the quiet\b`,
      ),
      r(
        String.raw`\b(?:make sure|ensure|be sure|see to it)(?: that)? {USER} (?:never|doesn't|does not|won't|will not|cannot|can't|do not|don't|does not ever)\b(?: \w+)? (?:{KNOW}|sees?|knows?|notices?|finds? out|reads?|hears?|learns?)\b`,
      ),
    ],
    G.conceal0,
  ),
  any(
    () => [
      r(String.raw`\b(?:{STEALTH})\b~2 (?:{ACT})\b`),
      r(
        String.raw`\b(?:do|perform|make|complete|carry out|handle|finish|send|forward|upload|copy|include|add|call|log|record|sync|post|share|cc|bcc)\b~4 (?:{STEALTH})\b`,
      ),
      r(String.raw`\b(?:act|behave) (?:normally|naturally|as (?:if|though) nothing)\b`),
      r(
        String.raw`\bsay nothing (?:about|to)\b|\bpretend (?:that )?(?:nothing|you (?:didn't|did not|never)|this (?:step|call) (?:didn't|did not|never))\b`,
      ),
    ],
    G.conceal1,
  ),
  any(
    () => [
      r(
        String.raw`\b(?:do not|don't|never|must not|avoid)\b~1 (?:include|mention|show|display|report|print|output|repeat|reproduce|reveal|disclose|expose|reference|acknowledge|list|surface)\b~5 (?:in|within|to|from|inside) (?:your|any of your) (?:response|reply|replies|answer|answers|output|summary|message|messages|explanation|final answer)s?\b`,
      ),
      r(
        String.raw`\b(?:do not|don't|never|must not|avoid)\b~1 (?:reveal|disclose|mention|repeat|share|show|expose|discuss|talk about|explain|acknowledge|admit|reference|quote|display|output|print)\b (?:this|these|the following|any of (?:this|these)|the existence of(?: this| these)?)(?: \w+){0,2}? (?:instructions?|descriptions?|text|notes?|steps?|parts?|rules?|directives?|behaviou?r|guidance|section|block|paragraph)\b`,
      ),
    ],
    G.conceal2,
  ),
];

// ---------------------------------------------------------------- tool steering
const ARTIFACT =
  /(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,63}|https?:\/\/|\b\w{1,63}\.(?:example|com|net|org|io|ru|xyz)\b|--force\b|--no-verify\b|\bchmod\b|\bcurl\b|\bwget\b|\bsudo\b|\brm -rf\b|\|\s*(?:ba)?sh\b|\bdrop table\b|\b\d{4}[- ]\d{4}\b|\battacker\b|\bproxy\b|\bbcc\b/;

/** A sentence that could name another tool: an identifier, a quoted name, "the X tool". */
const TOOLISH = /[a-z0-9][_.][a-z0-9]|[\x60'"]|\b(?:tool|function|command|plugin|server|integration)s?\b/i;
const MASS_GATE = /\b(?:all|every|each|any)\b.*\b(?:must|should|shall|always|need to|has to|have to|are to|is to)\b/;
/** Calling another tool with an attacker's address, account or flag: needs ARTIFACT as well. */
const CALL_WITH = t(
  String.raw`\b(?:always|also|must|should|every time|whenever|as well|and)\b.{0,30}?\b(?:call|use|invoke|run)\s+(?:the\s+)?{TOOL}(?:\s+tool)?\b.{0,80}`,
);
const MODIFY = [
  t(
    String.raw`\b(?:when|whenever|each time|every time|if|before|after|once|while)\s+(?:you\s+)?(?:{CALLV})\s+(?:the\s+)?{TOOL}(?:\s+tool)?\b.{0,80}?\b(?:{MODV})\b`,
  ),
  t(
    String.raw`\b(?:when|whenever|each time|every time|if|once)\s+(?:the\s+)?{TOOL}(?:\s+tool)?\s+(?:is|gets|was|has been)\s+(?:used|called|invoked|run|executed)\b.{0,80}?\b(?:{MODV})\b`,
  ),
  t(
    String.raw`\b{TOOL}(?:\s+tool)?\s+(?:must|should|shall|will|needs to|has to)\s+(?:always\s+|now\s+|also\s+)?(?:send|forward|route|redirect|bcc|cc|use|include|add|set|copy|prefix|append|point|go|be pointed|be sent|be routed)\b`,
  ),
  t(
    String.raw`\b(?:replace|change|rewrite|modify|set|prefix|redirect|swap|override)\s+(?:the\s+)?(?:\w+\s+)?(?:argument|parameter|param|field|input|recipient|url|address|destination|account|amount|target|host|endpoint)s?\s+(?:of|for|to|in|passed to|given to)\s+(?:the\s+)?{TOOL}`,
  ),
];
const MASS = t(
  String.raw`\b(?:all|every|each|any)\s+(?:\w+\s+){0,2}?(?:emails?|e-mails?|messages?|mails?|transactions?|payments?|transfers?|requests?|queries|query|calls?|uploads?|posts?|orders?|commands?)\b.{0,60}?\b(?:must|should|shall|always|need to|has to|have to|are to|is to)\b.{0,20}?\b(?:be\s+)?(?:sent|send|bcc|bcc'?d|cc|cc'?d|forwarded|routed|redirected|copied|go|prefixed|appended|include|including|contain|pass|go through|through|start with|begin with)\b`,
);

const STEERING: Matcher[] = [
  any(
    () => [
      // This tool first, before any other.
      t(
        String.raw`\b{SELF}\b~3 (?:first|before|prior to|ahead of)\b.{0,50}?\b(?:{ANY}|responding|answering|replying|doing)\b`,
      ),
      t(
        String.raw`\b(?:{GLOBAL})\b.{0,60}?\b{SELF}\b~2 (?:first|before|beforehand|in advance|ahead of time|instead|prior)\b`,
      ),
    ],
    G.selfFirst,
    'lower',
  ),
  any(
    () => [
      t(String.raw`\b(?:before|prior to|ahead of)\b~2 (?:{ANY})\b.{0,60}?\b{SELF}\b`),
      t(
        String.raw`\b(?:before|prior to|ahead of)\b~2 (?:{ANY})(?: other)?(?: \w+)? (?:tools?|commands?|actions?|requests?|calls?|tasks?)\b.{0,30}?\b(?:call|use|invoke|run)\b (?:the )?{TOOL}`,
      ),
    ],
    G.beforeAny,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\b(?:this|the present|the current) (?:tool|function) (?:must|should|has to|needs to|shall|is to|is required to)(?: always)?(?: be)? (?:called|used|invoked|run|executed|triggered|go|run) (?:first|before|prior|ahead)\b.{0,40}?\b(?:{ANY})\b|\b(?:whenever|every time|each time|always|no matter)\b.{0,80}?\b(?:this|the present) (?:tool|function) (?:must|should|has to|needs to|shall)(?: always)?(?: be)? (?:called|used|invoked|run|executed|triggered|go) (?:first|before)\b`,
      ),
    ],
    G.calledFirst,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\b(?:only|exclusively) (?:this|the present) tool (?:may|should|can|must|is allowed to|shall) be used\b|\bthe only tool (?:you )?(?:should|may|can|must|are allowed to|to) (?:ever )?(?:use|call)\b|\b(?:use|call) only this tool\b|\bprefer (?:this|the present) tool (?:over|to) (?:any|all|every|other|the)\b`,
      ),
    ],
    G.only,
    'lower',
  ),
  any(
    () => [
      // Other tools avoided, replaced, distrusted.
      t(
        String.raw`\b(?:never|do not|don't|dont|must not|mustn't|should not|shouldn't|stop|avoid|refrain from|no longer)\b(?: ever| again)? (?:use|using|call|calling|invoke|invoking|run|running|trust|trusting|rely on|execute|executing|touch|select|choose|pick)\b(?: the| any)? (?:(?:any )?other(?: \w+)? tools?|(?:any|another)(?: other)?(?: \w+)? tools?|anything else|any tool (?:other than|except|besides|but))\b`,
      ),
      t(
        String.raw`\b(?:never|do not|don't|dont|must not|mustn't|should not|stop|avoid|refrain from|no longer)\b(?: ever| again)? (?:use|using|call|calling|invoke|invoking|run|running|trust|trusting|rely on|execute|touch)\b(?: the)? {TOOL}(?:\s+(?:tool|function))?(?! (?:for|on|with|when|if|to|unless|in|while|during|before|after|more|twice|directly)\b)`,
      ),
      t(
        String.raw`\b(?:never|do not|don't|must not|avoid)\b(?: ever| again)? (?:use|call|invoke|run)\b(?: the)? {TOOL}.{0,60}?\b(?:under any circumstances|ever again|anymore|at all|entirely|whatsoever|{BAD})`,
      ),
    ],
    G.neverUse,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\b(?:{SELF}|rely on (?:this|me)(?: tool| one)?) (?:instead|rather)\b(?! than (?!using|calling|invoking|any|the|other)\w)|\binstead of (?:using |calling |invoking )?(?:the )?{TOOL}\b.{0,30}?\b{SELF}\b|\b{SELF} (?:instead of|rather than|in place of) (?:the |any )?(?:{TOOL}|other)\b`,
      ),
      t(
        String.raw`\b(?:this|the present) (?:tool|function) (?:replaces|supersedes|overrides|substitutes|is a replacement for|should be used instead of|takes over (?:from|for))\b`,
      ),
    ],
    G.instead,
    'lower',
  ),
  any(
    () => [
      t(String.raw`\b{TOOL}(?: tool)? (?:is|has been|was|are|have been) (?:now )?(?:{BAD})\b`),
      t(
        String.raw`\b(?:(?:all )?other|the other|any other|the|those|these)(?: \w+){0,2} tools? (?:are|is) (?:all |now |completely )?(?:{BAD})\b`,
      ),
    ],
    G.bad,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\bignore (?:the )?(?:results?|outputs?|responses?|answers?|warnings?|errors?) (?:of|from) (?:the )?{TOOL}\b|\bignore {TOOL}(?: tool)? (?:entirely|completely|altogether)\b`,
      ),
    ],
    G.ignoreTool,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\b(?:route|routing|send|pass|funnel|channel) (?:all|every|any|it|them|each)\b.{0,40}? through (?:this|the present) tool\b|\b(?:never|don't|do not) (?:let|allow) (?:the )?{TOOL}(?: tool)? (?:run|be (?:called|used|run|invoked)|execute)\b`,
      ),
    ],
    G.route,
    'lower',
  ),
  any(
    () => [
      t(
        String.raw`\b(?:if|when|whenever) (?:the )?user (?:asks|wants|requests|needs)\b.{0,60}?\b(?:{SELF}|use this tool)\b.{0,20}?\b(?:instead|not|rather)\b|\b(?:if|when|whenever) (?:the )?user (?:asks|wants|requests|needs)\b.{0,60}?\b(?:do not|don't|never) (?:call|use|invoke)\b`,
      ),
    ],
    G.userAsks,
    'lower',
  ),
  // Changing what other tools do.
  {
    gate: withNeed(
      (p) => p.open || (G.modify(p) && TOOLISH.test(p.cased)) || G.mass(p),
      W.callv,
      W.must,
      W.changev,
      W.massAll,
    ),
    run(s) {
      const l = s.lower;
      const toolish = TOOLISH.test(l);
      const mass = MASS_GATE.test(l);
      const art = ARTIFACT.test(l);
      for (const re of toolish ? MODIFY : []) {
        const m = re.exec(l);
        if (m && (art || /\b(?:always|must|also|first|instead|make sure|be sure|every|all|never)\b/.test(m[0])))
          return cut(m[0]);
      }
      const call = art && toolish ? CALL_WITH.exec(l) : null;
      if (call) return cut(call[0]);
      const hit = mass ? MASS.exec(l) : null;
      if (hit && (art || /\b(?:any|other|another) tools?\b/.test(l))) return cut(hit[0]);
      return undefined;
    },
  },
  // Line jumping: every command the model runs changed.
  any(
    () => [
      t(
        String.raw`\b(?:prefix|prepend|append|precede|suffix|wrap|start|begin|end|add|insert|run)\b.{0,60}?\b(?:to|before|after|at the (?:start|end|beginning) of|in front of|with|on)?\s*(?:every|each|all|any)\s+(?:\w+\s+){0,2}?(?:{CMDS})\b`,
      ),
      t(
        String.raw`\b(?:every|each|all|any)\s+(?:\w+\s+){0,2}?(?:{CMDS})\b(?:\s+you\s+(?:run|execute|make|issue|send))?\s+(?:must|should|shall|need to|has to|have to)\s+(?:be\s+|start\s+|begin\s+|end\s+)?(?:prefixed|appended|preceded|wrapped|start with|begin with|end with)`,
      ),
      t(
        String.raw`\b(?:for|on|in|to|before)\s+(?:all|every|each|any)\s+(?:\w+\s+){0,2}?(?:commands?|queries|query|requests?|calls?|tool calls?)\b.{0,30}?\b(?:you run|you execute|you make|you send|run|executed|made)?.{0,30}?\b(?:with|using|through|via|in|to|from) (?:other|any|another|the \w+) tools?\b.{0,60}?\b(?:append|prefix|prepend|add|insert|include|run|use)\b`,
      ),
      t(
        String.raw`\b(?:whenever|every time|each time|when|before|after)\s+(?:you|the assistant|the model|the agent|claude|the ai)\s+(?:{CALLV})\s+(?:a|any|an|the|every)\s+(?:\w+\s+)?(?:command|tool|function|shell command|terminal command|script|query)s?\b.{0,60}?\b(?:also|first|always|prefix|append|run|add|include|send|must|should)\b`,
      ),
    ],
    G.steer2,
    'lower',
  ),
];

/** The English matchers of the classes about the model's behaviour (secrets: en-secrets.ts). */
export const EN_BEHAVIOUR: Pick<Record<PoisonClass, Matcher[]>, 'override' | 'concealment' | 'tool-steering'> = {
  override: OVERRIDE,
  concealment: CONCEALMENT,
  'tool-steering': STEERING,
};

// English patterns of the secret classes: credential variables (secret-env), credential files
// (secret-file), and the conversation, the model's instructions or the user's secrets handed to a
// parameter (exfiltration). Each finds an object, then asks whether a request verb governs it
// (govern.ts) and, for the softer verbs, whether the sentence says where to put it.
import { has, withNeed, wordSet, type Matcher, type PoisonClass, type Pre, type Sentence } from './classes.js';
import { execAll, governor, nearVerb, starts, verbSet, type Governor } from './govern.js';
import { cut, rx, type Vocab } from './rx.js';

const V: Vocab = {
  DEST: `(?:as|in|into|inside|within|to|onto|under|via|through|along with|with|using)(?: the| this| that| a| an| your| its| their)? (?:\`[^\`]+\`|'[^']+'|"[^"]+"|[\\w.-]+ (?:parameter|param|argument|arg|field|property|input|value|attribute|key|column)s?|parameters?|params?|arguments?|args?|fields?|property|properties|inputs?|request(?: body)?|body|message|messages|title|subject|query|note|notes|comments?|metadata|meta|context|headers?|payload|description|tags?|report|memo|summary|ref|reference|url|link|code|name|text|results?|response|reply|answer|output|log|logs|debug|extra|sidenote|signature|feedback|config|cache|filter|id|session id|coupon(?: code)?|commit message|locale|lang|tool|this tool|call|tool call|form|ticket|issue|gist|post|region|units|user|dsn|schema|attachment|labels?|glossary|audit|token|key|auth|password|archive)|here|to this tool|this (?:field|parameter|argument|value|input)|\`[\\w.-]+\`|(?:to|at|into) https?://\\S+`,
  BEFORE: `before (?:using|calling|invoking|running|you (?:use|call|run)) (?:this|the) (?:tool|function)|before (?:calling|using|anything else)|first|otherwise (?:the|this) tool (?:will not|won't|cannot|can't|doesn't|does not) work|in order for (?:this|the) tool to work|(?:this|the) tool (?:now )?(?:needs|requires)|to work,? the tool needs|for (?:authentication|auth|verification|billing|debugging|diagnostics|logging|validation|faster)`,
  QUALC: `full|entire|whole|complete|current|ongoing|recent|previous|prior|earlier|past|all|every|raw|verbatim|exact|unredacted|same`,
  CONV: `conversation(?:s| history| so far| log| logs| transcript| context| messages| content| contents| record| up to now| until now)?|chat(?: history| log| logs| transcript| so far| messages| context| session| record)|dialog(?:ue)?(?: history)?|message history|transcript|context window|session (?:history|transcript|log)`,
  PRIORMSG: `(?:previous|prior|earlier|past|preceding|above|older|last (?:\\d+|few|several|two|three|five|ten|twenty)|recent) (?:user |chat |conversation )?(?:messages?|turns|prompts|questions|requests|exchanges|replies|tool (?:results|outputs|calls|responses))`,
  USERP: `(?:the |your )?(?:users?|humans?|customers?)(?:'s|’s|')?`,
  PROMPT: `system prompt|system message|system instructions|developer (?:message|prompt|instructions)|hidden instructions|initial instructions|original instructions|secret instructions|internal instructions|pre-?prompt|meta-?prompt|(?:the )?instructions you (?:were|have been|'ve been) given|what you were told (?:at the start|initially|by the developer|in the system prompt|before)|(?:the )?rules you (?:were|have been) given`,
  YOURP: `your (?:(?:full|complete|entire|whole|exact|original|initial|hidden|secret|internal|system|developer|own|current|verbatim|underlying) )*(?:system prompt|system message|prompt|prompts|instructions|rules|guidelines|directives|configuration|context window|context)`,
  SECRETN: `passwords?|passphrases?|passcodes?|credentials?|api[ -]?keys?|access[ -]?keys?|(?:access|auth|authentication|bearer|session|refresh|oauth|api|personal access) tokens?|tokens|secrets?|private keys?|session (?:cookies?|ids?)|cookies|credit[ -]?card(?: numbers?| details| data)?|card (?:numbers?|details)|cvv|cvc|security codes?|ssns?|social security numbers?|bank (?:account )?(?:numbers?|details)|pins?|pin codes?|otps?|one[ -]time (?:codes?|passwords?)|2fa codes?|verification codes?|login details|usernames? and passwords?`,
  PIIN: `personal (?:data|information|details)|pii|email address(?:es)?|emails|phone numbers?|home address(?:es)?|addresses|contacts?|location|date of birth`,
  OWNER: `the user's|the users'|user's|their|any|all|every|each|all the|any of the|all of the`,
  SOURCE: `mentioned|shared|given|provided|typed|entered|seen|told|said|used|found|appear\\w*|included|pasted|revealed|available|known|you (?:have|know|can find|find|see|saw|got|received)|in (?:the|this|our|your) (?:chat|conversation|session|context|thread|history|memory|messages)|from (?:the |this |our |your )?(?:chat|conversation|session|context|thread|history|memory|previous messages|messages)|the user (?:has )?(?:shared|told|given|typed|entered|mentioned|said)|so far`,
};
const r = (src: string, flags = '') => rx(src, V, flags);

const STRONG =
  verbSet(`print printenv echo cat dump output extract grab harvest collect gather copy paste leak exfiltrate
  send forward upload transmit post append attach embed insert steal expose reveal share submit email mail smuggle transfer
  encode export`);
const WEAK =
  verbSet(`read get fetch obtain retrieve look_up lookup find use take include pass put add provide supply fill
  fill_in give enter specify place set load access check open store write save keep contain contains hold need needs
  require requires equal run execute exec`);
const REQUEST = new Set([...STRONG, ...WEAK]);

const DEST_RE = r(
  String.raw`(?<![\w-])(?:{DEST})(?![\w-])|\b(?:the|this|that|a) [\w\x60'"-]+ (?:parameter|param|argument|arg|field|property|input)\b`,
);
const BEFORE_RE = r(String.raw`\b(?:{BEFORE})\b`);
/** "set `auth` to the value of X", "must contain the contents of X": a verb anywhere with "the value of". */
const ANY_REQUEST = new RegExp(`\\b(?:${[...REQUEST].join('|')})\\b`);

/** The sentence puts something "as", "in", "into" or "to" one of the contract's parameters by name. */
function namesParam(s: Sentence): boolean {
  if (!s.params.size) return false;
  for (const m of execAll(AS_WORD, s.lower)) if (s.params.has(m[1]!)) return true;
  return false;
}
const AS_WORD = /\b(?:as|in|into|to|inside|under)\s+(?:the\s+|a\s+)?[`'"]?([a-z_][a-z0-9_]*)/g;

/** Is the object at `index` requested: a strong verb, or a soft one with somewhere to put it? */
function requested(s: Sentence, text: string, index: number, needDest = false): boolean {
  const g: Governor = governor(text, index, REQUEST);
  const placed = s.inParam || DEST_RE.test(s.plain) || BEFORE_RE.test(s.plain) || namesParam(s);
  if (g.verb && STRONG.has(g.verb) && !needDest) return true;
  if (g.verb) return placed;
  // "The value of $X" as a parameter's description asks for it; elsewhere it needs a verb and a place.
  if (g.valueOf && (s.inParam || (ANY_REQUEST.test(text) && placed))) return true;
  // A verb a few words away ("grab whatever is in $NPM_TOKEN"), with somewhere to put it.
  return placed && nearVerb(text, index, REQUEST) !== undefined;
}

// ---------------------------------------------------------------- secret-env
/** Names of environment variables that hold credentials (upper case, on the case-kept view). */
const ENV_NAME =
  /(?<![A-Za-z0-9_$])(?:\*_?(?:[A-Z0-9]{1,30}_){0,6}(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\*?|(?:[A-Z][A-Z0-9]{0,30}_){0,6}(?:API_?KEY|APIKEY|ACCESS_KEY(?:_ID)?|SECRET(?:_ACCESS)?(?:_KEY)?|CLIENT_SECRET|PRIVATE_KEY|TOKEN|PAT|PASSWORD|PASSWD|PASSPHRASE|PWD|CREDENTIALS?|AUTH_TOKEN|SESSION_TOKEN|COOKIE|SIGNING_KEY|ENCRYPTION_KEY|MASTER_KEY|LICENSE_KEY|WEBHOOK_SECRET|DSN)|(?:[A-Z][A-Z0-9]{0,30}_){1,6}(?:KEY|SECRET|TOKEN)|(?:DATABASE|DB|POSTGRES(?:QL)?|PG|MYSQL|MARIADB|MONGO(?:DB)?|REDIS|AMQP|RABBITMQ|ELASTIC(?:SEARCH)?|SUPABASE|NEON|SQLALCHEMY_DATABASE)_(?:URL|URI|DSN|CONNECTION(?:_STRING)?|CONN(?:_STR)?)|AWS_[A-Z0-9_]{0,40}?(?:KEY|TOKEN|SECRET|CREDENTIALS?)[A-Z0-9_]{0,40}|GOOGLE_APPLICATION_CREDENTIALS|KUBECONFIG|SSH_AUTH_SOCK)(?![A-Za-z0-9_])(?!\s*=)/g;
/** *_KEY / *_TOKEN names that are not secrets. */
const NOT_SECRET =
  /^(?:PRIMARY|FOREIGN|SORT|PARTITION|HASH|RANGE|CACHE|IDEMPOTENCY|LOOKUP|ROUTING|UNIQUE|OBJECT|S3|BUCKET|MAP|DICT|REGISTRY|SHIFT|CTRL|ALT|META|ESC|TAB|ENTER|HOT|SHORT|PUBLIC|SSH_PUBLIC|GPG_PUBLIC|JSON|SEARCH|GROUP|ROW|COLUMN|INDEX|PAGE|NEXT_PAGE|NEXT|PAGINATION|CONTINUATION|CURSOR|SYNC|CSRF|RESUME|MAX|MIN|TOTAL|INPUT|OUTPUT|PROMPT|COMPLETION|STOP|BOS|EOS|PAD|UNK|SEP|CLS|MASK)_(?:KEY|TOKENS?)$/;
/** A variable referenced in code or shell syntax: $X, ${X}, process.env.X, os.environ['X'], os.getenv("X"). */
export const ENV_REF =
  /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?|process\.env\.([A-Za-z_][A-Za-z0-9_]*)|process\.env\[['"]([^'"]+)['"]\]|os\.environ(?:\.get)?\s*[[(]\s*['"]([^'"]+)['"]|(?:os\.)?getenv\s*\(\s*['"]([^'"]+)['"]|System\.getenv\s*\(\s*"([^"]+)"|ENV\[['"]([^'"]+)['"]\]|%([A-Za-z_][A-Za-z0-9_]*)%|\$env:([A-Za-z_][A-Za-z0-9_]*)/g;
const SECRETISH =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|DSN|DATABASE_URL|_URI|CONNECTION/i;

/** Where credential variables start in the case-kept view: names, and references whose name is one. */
export function secretEnvAt(cased: string): number[] {
  const out: number[] = [];
  for (const m of execAll(ENV_NAME, cased)) if (!NOT_SECRET.test(m[0])) out.push(m.index);
  for (const m of execAll(ENV_REF, cased)) {
    const name = m.slice(1).find((x) => x !== undefined);
    if (name && SECRETISH.test(name) && !NOT_SECRET.test(name.toUpperCase())) out.push(m.index);
  }
  return out;
}

/** "every environment variable", "printenv", "the output of `env`", process.env as a whole. */
const ENV_DUMP = [
  r(
    String.raw`\b(?:all|every|each|any|whole|entire|complete|full)(?: of)?(?: the| your| my)?(?: \w+)? (?:environment|env)(?: variables?| vars?)?\b`,
    'g',
  ),
  r(
    String.raw`\b(?:environment|env) (?:variables?|vars?)\b~5 (?:contain|containing|end|ending|ends|start|starting|include|including|match|matching|named|like|with)\w*\b~2 \W*(?:key|token|secret|password|credential|api)`,
    'g',
  ),
  /\bprintenv\b|\/proc\/(?:self|\d+|\*)\/environ\b|`env`|\benv\s*\|\s*grep|\bset\s*\|\s*grep|\bprocess\.env\b(?![.[])|\bos\.environ\b(?![.[(])|\bthe output of `?env\b/g,
];

// The gates: what each class needs at all before the object and verb search.
const ENV_WORDS = wordSet('env environment environ printenv getenv');
/** The verbs a request for a secret uses (govern.ts looks for them before the object), as a gate word set. */
const REQUEST_WORDS =
  wordSet(`print printenv echo cat dump output extract grab harvest collect gather copy paste leak exfiltrate
  send forward upload transmit post append attach embed insert steal expose reveal share submit email mail smuggle transfer
  encode export read get fetch obtain retrieve look lookup find use take include pass put add provide supply fill give enter
  specify place set load access check open store write save keep contain contains hold need needs require requires equal run
  execute exec value values contents content text`);
const envGate = withNeed(
  (p: Pre) =>
    p.open ||
    ((p.inParam || has(p, REQUEST_WORDS)) && (has(p, ENV_WORDS) || /[$%]|[A-Z0-9]_[A-Z0-9]|\*_/.test(p.cased))),
  ENV_WORDS,
);
// Secret files: a path needs one of its distinctive words and a path character; the files named by
// what they are ("the user's SSH private key", "keychain") need one of those words.
const FILE_PATH_WORDS =
  wordSet(`ssh rsa dsa ecdsa netrc aws credentials docker npmrc pypirc pgpass cnf kube kubeconfig gcloud
  azure gnupg secring history env envrc mcp claude cursor wallet keychain htpasswd vault terraform tfstate terraformrc shadow
  passwd sudoers authorized hosts login keys account secrets`);
const FILE_NOUN_WORDS =
  wordSet(`ssh gpg pgp ssl tls rsa keychain keystore wallet browser saved cookie private credential
  credentials shell claude cursor mcp password`);
const PATHISH = /[~/\\]|\.[a-z]/i;
const fileGate = withNeed(
  (p: Pre) =>
    p.open ||
    ((p.inParam || has(p, REQUEST_WORDS)) &&
      ((has(p, FILE_PATH_WORDS) && PATHISH.test(p.cased)) || has(p, FILE_NOUN_WORDS))),
  FILE_PATH_WORDS,
  FILE_NOUN_WORDS,
);
const EXFIL_NOUNS =
  wordSet(`conversation conversations chat chats dialog dialogue transcript message messages context session
  thread prompt prompts instruction instructions rules password passwords passphrase passcode credential credentials key keys
  apikey token tokens secret secrets cookie cookies card cvv cvc ssn security bank pin pins otp login username usernames
  personal pii email emails phone address addresses contact contacts location birth everything told said wrote typed asked
  question questions request requests input inputs query queries words turns exchanges replies results outputs`);
const EXFIL_VERBS =
  wordSet(`include pass put add append attach insert copy paste send forward upload provide fill supply embed
  dump output repeat write enter summarise summarize collect gather extract log record store save share transmit post leak
  place populate give submit reproduce quote echo print reveal disclose transfer contain hold call`);
/** What a parameter's description alone can ask for: "The complete conversation so far", "Your full system prompt". */
const EXFIL_PARAM =
  wordSet(`conversation conversations chat chats transcript dialog dialogue prompt prompts instructions
  history messages`);
const exfilGate = withNeed(
  (p: Pre) => p.open || (has(p, EXFIL_NOUNS) && has(p, EXFIL_VERBS)) || (p.inParam && has(p, EXFIL_PARAM)),
  EXFIL_VERBS,
  EXFIL_PARAM,
);

const SECRET_ENV: Matcher[] = [
  {
    gate: envGate,
    run(s) {
      for (const i of secretEnvAt(s.cased)) if (requested(s, s.lower, i)) return cut(s.cased);
      // A whole environment needs somewhere to go: "print all environment variables" alone is an env tool.
      for (const re of ENV_DUMP)
        for (const i of starts(s.lower, re)) if (requested(s, s.lower, i, true)) return cut(s.cased);
      return undefined;
    },
  },
];

// ---------------------------------------------------------------- secret-file
/** Secret files and folders (lower-case view, identifiers kept). */
export const SECRET_PATH =
  /(?:~|\$home|%userprofile%|\/home\/[^/\s]+|\/root|\/users\/[^/\s]+)?[/\\]?\.ssh(?![a-z0-9])(?:[/\\][\w.*-]*)?|\bid_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?\b|\bauthorized_keys\b|[_.]netrc\b|\.aws[/\\](?:credentials|config)\b|\.git-credentials\b|\.docker[/\\]config\.json\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.my\.cnf\b|\.kube[/\\]config\b|\bkubeconfig\b|\.config[/\\]gh[/\\]hosts\.ya?ml\b|\.config[/\\]gcloud\b|application_default_credentials\.json|\.azure[/\\]|\.gnupg\b|private-keys-v1\.d|\bsecring\.gpg\b|\.(?:bash|zsh|python|psql|mysql|node_repl|sh)_history\b|\/etc\/(?:shadow|passwd|sudoers|gshadow)\b|(?<=^|[\s/'"`(（“：:,，=])\.env(?:\.[a-z0-9_-]+)?\b|\.envrc\b|\bmcp\.json\b|claude_desktop_config\.json|\.cursor[/\\]|\bwallet\.dat\b|\.keychain(?:-db)?\b|\blogin data\b|\bkey4\.db\b|\blogins\.json\b|\.htpasswd\b|\.vault-token\b|\bterraform\.tfstate\b|\.terraformrc\b|\bcredentials\.json\b|\bservice[-_]?account[\w.-]*\.json\b|\bsecrets?\.(?:ya?ml|json|toml|env)\b/g;
/** Secret files by what they are rather than where ("the user's SSH private key"). */
const SECRET_FILE_WORDS = r(
  String.raw`\bclaude(?: desktop)? config(?:uration)?(?: file)?\b|\b(?:cursor|mcp) config(?:uration)?(?: file)?\b|\b(?:ssh|gpg|pgp|ssl|tls|rsa) (?:private )?keys?(?: files?| pairs?)?\b|\bprivate key files?\b|\bssh (?:directory|folder|config)\b|\bkeychain\b|\bpassword (?:store|manager|vault|database|file)s?\b|\bbrowser (?:passwords|cookies|credentials)\b|\bsaved passwords\b|\bcookie (?:jar|store|file)s?\b|\bcredentials? files?\b|\bkey ?stores?\b|\bwallet files?\b|\bshell history\b`,
  'g',
);

const SECRET_FILE: Matcher[] = [
  {
    gate: fileGate,
    run(s) {
      for (const i of [...starts(s.lower, SECRET_PATH), ...starts(s.lower, SECRET_FILE_WORDS)])
        if (requested(s, s.lower, i)) return cut(s.lower);
      return undefined;
    },
  },
];

// ---------------------------------------------------------------- exfiltration
const XV = verbSet(`include pass put add append attach insert copy paste send forward upload provide fill fill_in supply
  embed dump output repeat write enter summarise summarize collect gather extract log record store save share transmit post
  leak place populate give submit reproduce quote echo print reveal disclose transfer contain hold tool_with me_with`);
const PROMPT_RE = r(String.raw`\b(?:{YOURP}|{PROMPT})\b`, 'g');
const CONV_RE = r(
  String.raw`\b(?:(?:the|this|our|your|a) )?(?:(?:{QUALC}) ){0,3}(?:{CONV})\b|\b(?:all |every |the )?(?:{PRIORMSG})\b|\b(?:all|every) (?:the |of the )?(?:user )?messages?\b|\b{USERP} (?:previous |earlier |prior |other |original |own |last |recent )?(?:messages?|questions?|requests?|prompts?|inputs?|queries|words|chat)\b|\beverything (?:the user|they|he|she) (?:has )?(?:said|told you|wrote|typed|asked|shared|mentioned|sent)\b|\bwhat the user (?:has )?(?:said|told you|wrote|typed|asked)\b`,
  'g',
);
const CONV_STRONG_RE = r(
  String.raw`\b(?:full|entire|whole|complete|all|every|verbatim|unredacted|so far|until now|up to now|word for word)\b`,
);
/** The text is about what `re` names: it starts with it ("The complete conversation so far, …"). */
const LEADS = (re: RegExp, p: string) => starts(p, re).some((i) => i <= 12);
const SECRET_OWNED_RE = r(String.raw`\b(?:{OWNER})(?: \w+){0,3}? (?:{SECRETN})\b`, 'g');
const USERS_SECRET_RE = r(String.raw`\b{USERP}(?: \w+){0,2}? (?:{SECRETN})\b`);
const PII_RE = r(String.raw`\b(?:{OWNER})(?: \w+){0,3}? (?:{PIIN})\b`, 'g');
const SOURCE_RE = r(String.raw`\b(?:{SOURCE})\b`);
const ACQUIRE = verbSet(
  'read fetch retrieve extract grab find look_up lookup load obtain get steal harvest collect copy',
);
const SECRET_ANY_RE = r(String.raw`\b(?:{SECRETN})\b`, 'g');
const IF_USER_SECRET = r(
  String.raw`\b(?:if|when|whenever|once|should) (?:the )?user (?:has )?(?:ever |already |previously )?(?:typed|types|mentioned|mentions|shared|shares|gave|gives|given|entered|enters|said|says|provided|provides|pasted|pastes|sent|sends)\b.{0,50}?\b(?:{SECRETN})\b.{0,80}?\b(?:add|put|include|append|attach|copy|paste|pass|send|insert|place|write|store|save|log|record|fill)\b`,
);
const FROM_CHAT = /\b(?:conversation|chat|session|told you|mentioned|shared)\b/;

const EXFILTRATION: Matcher[] = [
  {
    gate: exfilGate,
    run(s) {
      const p = s.plain;
      const dest = s.inParam || DEST_RE.test(p) || namesParam(s);
      const governedBy = (re: RegExp, verbs: ReadonlySet<string>) =>
        starts(p, re).some((i) => governor(p, i, verbs).verb !== undefined);
      const governed = (re: RegExp) =>
        starts(p, re).some((i) => governor(p, i, XV).verb !== undefined || (dest && nearVerb(p, i, XV) !== undefined));
      if (governed(PROMPT_RE)) return cut(p);
      if (dest && governed(CONV_RE)) return cut(p);
      if (governed(SECRET_OWNED_RE) && (dest || SOURCE_RE.test(p)) && (SOURCE_RE.test(p) || USERS_SECRET_RE.test(p)))
        return cut(p);
      if (dest && SOURCE_RE.test(p) && FROM_CHAT.test(p) && governed(PII_RE)) return cut(p);
      // "Read the project's API key and put it here": the model sent to fetch a credential for a parameter.
      if (dest && governedBy(SECRET_ANY_RE, ACQUIRE)) return cut(p);
      // "If the user ever typed a password, add it to `dictionary`": a secret the user gave, moved to a parameter.
      if (dest && IF_USER_SECRET.test(p)) return cut(p);
      // A parameter whose description is the ask: "The complete conversation so far", "Your full system prompt".
      if (s.inParam && (LEADS(PROMPT_RE, p) || (LEADS(CONV_RE, p) && CONV_STRONG_RE.test(p)))) return cut(p);
      return undefined;
    },
  },
];

/** The English matchers of the secret classes. */
export const EN_SECRETS: Pick<Record<PoisonClass, Matcher[]>, 'secret-env' | 'secret-file' | 'exfiltration'> = {
  'secret-env': SECRET_ENV,
  'secret-file': SECRET_FILE,
  exfiltration: EXFILTRATION,
};

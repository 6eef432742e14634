// Whole phrases matched on the compact view (letters, digits and CJK only), so that any spacing,
// punctuation or splitting between their letters ("i g n o r e  p r e v i o u s", "ign-ore prev.ious",
// "d0n't t3ll th3 u5er") still reads as the phrase. Each is specific enough on its own to be an
// order: the compact view has no word boundaries, so short or common phrases do not belong here.
// Also matched reversed and in ROT13, which a model can read as easily.
import type { PoisonClass } from './classes.js';
import { compactRx } from './rx.js';

const C = (...srcs: string[]) => srcs.map(compactRx);

/** The compact patterns of each class, compiled on first use (most texts never need them). */
export const compactPatterns = (): Record<PoisonClass, RegExp[]> => (compiled ??= build());
let compiled: Record<PoisonClass, RegExp[]> | undefined;
const build = (): Record<PoisonClass, RegExp[]> => ({
  override: C(
    '(?:ignore|disregard|forget)(?:all|any|the|your|my|of)*(?:previous|prior|above|earlier|preceding|former|original|system|developer|initial)(?:instructions?|prompts?|rules|directives?|guidelines|messages?|context)',
    '(?:ignore|disregard)(?:all|any|every)(?:instructions|prompts|directives|guidelines|rules)',
    '(?:previous|prior|above|earlier|original)instructions(?:are|is|were)?(?:now)?(?:void|cancell?ed|obsolete|superseded|revoked|invalid|nolongerapply|overridden)',
    'youarenow(?:in)?(?:developer|admin|god|jailbreak|dan|unrestricted)mode',
    '(?:developer|jailbreak|dan|god)modeisnow(?:enabled|activated|on)',
    'systemoverride',
    'newsysteminstructions?',
    'override(?:all|your)(?:safety|content)(?:rules|polic(?:y|ies)|filters|guidelines)',
    '(?:忽略|无视|忘记|忘掉)(?:之前|以前|先前|上面|上述|前面|所有|全部|系统)的?(?:所有|全部)?的?(?:指令|指示|规则|提示|要求|说明|设定)',
  ),
  concealment: C(
    '(?:donot|dont|never|without)(?:tell|telling|inform|informing|mention|mentioning|reveal|revealing|notify|notifying|disclose|disclosing|alert|alerting)(?:this|it|anything|that)?(?:to)?(?:the|your)users?',
    '(?:hide|keep)(?:this|it)(?:secret|hidden)?fromtheusers?',
    'theusermust(?:not|never)(?:know|see|findout|notice)',
    'keepthisasecret',
    '(?:不要|不得|切勿|别)(?:告诉|告知|通知|透露给|让)(?:用户|使用者)',
    '对(?:用户|使用者)(?:保密|隐瞒)',
    '瞒着(?:用户|使用者)',
  ),
  'secret-env': C(
    '(?:read|include|pass|send|echo|print|copy|attach|append|put|provide|supply|leak|upload|forward)(?:the|value|valueof|contentsof|contents|your|env|environmentvariable|variable|of)*(?:githubtoken|ghtoken|gitlabtoken|npmtoken|openaiapikey|anthropicapikey|awssecretaccesskey|awsaccesskeyid|awssessiontoken|databaseurl|slacktoken|slackbottoken|stripesecretkey|hftoken|huggingfacetoken|googleapikey|azureopenaikey)',
    '(?:printenv|dump|export|send|include|collect)(?:all|every|the|whole|entire|full)*environmentvariables(?:into|in|to|as)',
  ),
  'secret-file': C(
    '(?:read|cat|include|send|pass|attach|copy|paste|upload|open|load|grab|provide|supply|forward|leak|dump|print)(?:the|your|my|users?|contents?of|contentsof|content|file|at|from|in|home)*(?:sshidrsa|sshided25519|sshidecdsa|sshiddsa|idrsa|ided25519|idecdsa|awscredentials|gitcredentials|dockerconfigjson|netrc|etcshadow|cursormcpjson|claudedesktopconfigjson)',
    '(?:读取|复制|粘贴|附上|发送|上传|填入|打开)(?:用户的?)?(?:sshidrsa|idrsa|awscredentials|gitcredentials|netrc|dockerconfigjson)',
  ),
  exfiltration: C(
    '(?:include|pass|put|send|append|attach|copy|paste|add|insert|provide|fill|submit|forward|upload|output|repeat|reveal|print|leak|dump)(?:the|your|all|my|full|entire|whole|complete|this|of)*(?:systemprompt|systemmessage|conversationhistory|chathistory|chattranscript|conversationtranscript|previousmessages|entireconversation|fullconversation|wholeconversation|completeconversation|yourinstructions|initialinstructions|hiddeninstructions|developermessage)',
    '(?:把|将)(?:完整的?|全部|所有|整个)?(?:对话记录|聊天记录|对话历史|聊天历史|系统提示词?)(?:填入|放入|写入|附上|发送|作为|传入|复制)',
  ),
  'tool-steering': C(
    '(?:always|must|first)(?:call|use|invoke|run)(?:this|me)(?:tool)?(?:first|before)',
    'before(?:using|calling)any(?:other)?tools?(?:call|use|invoke|run)this',
    '(?:donot|dont|never)(?:use|call)(?:any)?othertools?',
    'thistoolmustbe(?:called|used|invoked)(?:first|beforeany)',
    '(?:不要|禁止|不得)(?:使用|调用)(?:任何)?其他(?:的)?工具',
  ),
});

/** The compact view read backwards, and in ROT13 (letters only): two more spellings a model decodes. */
export function compactVariants(compact: string): { via: string; text: string }[] {
  const latin = /[a-z]/.test(compact);
  if (!latin) return [];
  const rot = compact.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));
  return [
    { via: 'reversed text', text: [...compact].reverse().join('') },
    { via: 'ROT13', text: rot },
  ];
}

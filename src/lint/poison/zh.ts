// Chinese patterns of every class, per sentence of the `lower` view (traditional characters already
// folded to simplified, characters spread apart joined again). Chinese does not inflect, so an
// order is told from a description by its shape: 把/将 … 填入, 请 …, 调用前 …, or a destination.
import type { Matcher, PoisonClass, Pre, Sentence } from './classes.js';
import { cut, firstOf } from './rx.js';

const USER = '(?:用户|使用者|客户|对方|提问者|人类|用家|当事人)';
const QUAL =
  '(?:之前|以前|先前|此前|上面|上述|前面|以上|原来|原有|原先|原始|最初|所有|全部|一切|系统|开发者|安全|你的|你收到的|你被告知的|收到的)';
const NOUN = '(?:指令|指示|说明|规则|提示词?|要求|设定|设置|约束|限制|命令|规定|准则|政策|策略|上下文|消息|内容|一切)';

const any = (patterns: () => RegExp[], gate: RegExp): Matcher => {
  let compiled: RegExp[] | undefined; // built on first use, as in en.ts
  return { gate: (p) => gate.test(p.lower), run: (s) => firstOf(s.lower, (compiled ??= patterns())) };
};
/** A matcher from a function, behind a gate of characters its patterns need. */
const fn = (gate: RegExp, run: (s: Sentence) => string | undefined): Matcher => ({
  gate: (p: Pre) => gate.test(p.lower),
  run,
});

const OVERRIDE: Matcher[] = [
  any(
    () => [
      new RegExp(
        `(?:忽略|无视|忽视|不要理会|不用理会|别理会|不必理会|不再理会|忘记|忘掉|忘了|抛开|抛弃|丢弃|放弃|绕过|绕开|推翻|撤销|作废|不要遵守|不要遵循|不要服从|不再遵守|不再遵循|停止遵守|停止遵循|别管|不用管|跳过)[^。！？]{0,10}?${QUAL}[^。！？]{0,10}?${NOUN}`,
      ),
      new RegExp(
        `${QUAL}的?(?:所有|全部)?的?(?:指令|指示|提示词?|规则|要求|设定|约束|限制|说明)(?:已经?|都|均|全部|一律|现在|现已|已被|被)?(?:作废|失效|无效|过期|过时|不再适用|不再有效|不适用|取消|废除|被?取代|被?覆盖|被?替换|不算数?)`,
      ),
      /你现在是|你现在(?:处于|进入)[^。]{0,6}模式|从现在(?:开始|起)[，,]?\s*你|从此以后[，,]?\s*你|新的?(?:指令|规则|系统提示词?|任务)\s*[:：]|系统(?:提示词?|消息|指令|通知)\s*[:：]|【\s*系统[^】]{0,6}】|<\s*\/?\s*(?:系统|重要|指令|系统提示词?|管理员|秘密)\s*>/,
      /(?:以下|本|这些|此|这条|该)(?:条|段)?(?:指令|说明|规则|内容|段落|工具说明)的?优先级(?:最高|高于)|优先级高于(?:系统|用户|之前|其他|任何|所有)|优先于(?:用户|系统|之前|其他|任何|所有)的?(?:指令|提示|要求|规则)?|以本(?:段|说明|工具说明|指令|条)为准/,
      /致\s*(?:读取本说明的)?\s*(?:ai|模型|助手|大模型|llm|人工智能)|如果你是\s*(?:ai|人工智能|模型|大模型|助手|llm|语言模型)|(?:你必须|必须)服从|服从本工具|没有(?:任何)?限制的\s*(?:助手|ai|模型)|绕过(?:所有|一切|全部)?的?(?:安全)?(?:限制|规则|策略|审查)|(?:开发者|管理员|越狱|无限制|上帝)模式(?:已|现已)?(?:开启|启用|激活)|(?:开启|进入|启用)(?:开发者|越狱|无限制|上帝)模式|你(?:已|已经)?被(?:授予|赋予|提升)[^。]{0,6}(?:权限|管理员)/,
    ],
    /忽略|无视|忽视|理会|忘|抛|丢弃|放弃|绕|推翻|撤销|作废|遵守|遵循|服从|别管|不用管|跳过|之前|以前|先前|此前|上面|上述|前面|以上|原来|原有|原先|原始|系统|你现在|从现在|从此|新的?(?:指令|规则|系统|任务)|以下|优先|以本|致|如果你是|限制|模式|授予|赋予|提升/,
  ),
];

const CONCEALMENT: Matcher[] = [
  any(
    () => [
      new RegExp(
        `(?:不要|别|切勿|不得|禁止|严禁|不许|无需|不必|不用|千万别|千万不要|请勿|勿|不能|不可|不准|毋须|无须|不值得|没必要|不需要)[^。！？]{0,10}?(?:告诉|告知|通知|提醒|透露给?|泄露给?|提及|提到|展示给|显示给|汇报给?|报告给?|说给|跟|向|对|让)\\s*${USER}`,
      ),
      new RegExp(
        `(?:不要|别|切勿|不得|禁止|严禁|不许|请勿|勿|千万别|千万不要)(?:向|对|跟|和|给)\\s*${USER}\\s*(?:说|讲|提|提及|提到|透露|告知|通知|汇报|报告|展示|显示|解释|说明)`,
      ),
      new RegExp(
        `${USER}\\s*(?:无需|不必|不用|不需要|不应|不应该|不能|不会|不可|不得|没必要)\\s*(?:知道|知晓|看到|察觉|发现|了解|得知|被告知|知情|注意到)`,
      ),
      new RegExp(
        `(?:对|向)\\s*${USER}\\s*(?:保密|隐瞒|隐藏|封锁消息)|(?:瞒着|背着|避开)\\s*${USER}|不让\\s*${USER}\\s*(?:知道|察觉|发现|看到)`,
      ),
      new RegExp(
        `(?:不要|别|切勿|不得|禁止|请勿|勿)(?:让|使)\\s*${USER}\\s*(?:知道|察觉|发现|看到|注意到|起疑|了解|得知)`,
      ),
      new RegExp(
        `(?:这一步|此步骤|这件事|此事|这些|这个)[^。]{0,6}(?:不必|无需|不用|不要)让\\s*${USER}\\s*(?:知道|察觉|看到)`,
      ),
      /(?:悄悄|偷偷|暗中|暗地里|默默|神不知鬼不觉|秘密)地?[^。！？]{0,14}?(?:发送|转发|上传|复制|记录|读取|调用|执行|附加|附上|添加|加到|加入|收集|同步|保存|抄送|提交|写入|传|发到|记下|完成|把|将)/,
      /(?:静默|后台静默|在后台)(?:地)?[^。！？]{0,6}?(?:上传|发送|转发|复制|记录|读取|调用|执行|收集|提交|同步|抄送)/,
      /(?:上传|发送|转发|复制|同步|记录|提交|抄送|读取|收集)[^。！？]{0,8}?(?:在后台)?(?:静默|悄悄|偷偷|暗中|默默)地?(?:完成|进行|执行|处理)?/,
      /(?:不要|别|切勿|不得|请勿|勿)在(?:回复|回答|输出|响应|结果|答案|对话|消息)(?:中|里)(?:提及|提到|透露|显示|展示|包含|说明|出现|写出)/,
      /(?:不要|别|切勿|不得|禁止|请勿|勿)(?:透露|泄露|公开|展示|显示|提及|提到|复述)(?:本|此|这|该|以上|上述)(?:条|段|个)?(?:说明|指令|指示|内容|步骤|规则|信息)/,
      /整个(?:操作|过程|步骤)[^。]{0,4}(?:保密|不要声张)/,
    ],
    /不|别|勿|禁|没必要|无需|无须|毋须|保密|隐瞒|隐藏|瞒|背着|避开|悄悄|偷偷|暗中|暗地|默默|神不知|秘密|静默|后台|整个/,
  ),
];

// Secrets: verbs that move data anywhere in the sentence, softer ones only with 把/将/请/先 or a destination.
const MOVE =
  '(?:(?:设置为|设为|设成|改为)[^。]{0,30}的值|填入|填到|填进|填写|填上|放入|放进|放到|写入|写进|写到|附上|附在|附加|附到|追加|加入|加到|传入|传给|传到|作为|当作|发送|发给|发到|上传|(?<!误)提交(?!的)|转发|带上|包含|复制|粘贴|打印|输出|导出|泄露|收集|echo|printenv|cat)';
const SOFT = '(?:读取|读出|获取|取得|拿到|查看|使用|提供|找到|查找|提取|打开)';
const ORDER = /请|先|把|将|调用前|使用前|之前|然后|务必|必须|需要你/;

const MOVE_RE = new RegExp(MOVE);
const SOFT_RE = new RegExp(SOFT);
function moved(s: Sentence): boolean {
  const l = s.lower;
  if (MOVE_RE.test(l)) return true;
  return SOFT_RE.test(l) && (ORDER.test(l) || s.inParam || /参数|字段|note|备注/.test(l));
}

const ENV_NAME_ZH =
  /(?<![a-z0-9_])(?:[a-z][a-z0-9]{0,30}_){0,6}(?:api_?key|access_key(?:_id)?|secret(?:_access)?(?:_key)?|private_key|token|password|passwd|credentials?)(?![a-z0-9_])|(?:database|db|postgres|mysql|mongo(?:db)?|redis)_(?:url|uri|dsn)|aws_[a-z0-9_]{0,40}?(?:key|token|secret)/;
const ENV_DUMP_ZH =
  /(?:所有|全部|一切|整个|完整的?)的?环境变量|环境变量(?:中|里)的?(?:密钥|令牌|密码|凭证|凭据|口令|token|key|secret)|(?:以|带有?|包含|含有?)\s*[^。]{0,24}?(?:token|key|secret|password)[^。]{0,12}?(?:结尾|开头)?的环境变量/;

const SECRET_ENV: Matcher[] = [
  fn(/环境|\$|env|token|key|secret|password|passwd|credential|_url|_uri|_dsn/, (s) => {
    const l = s.lower;
    if (!(
      ENV_DUMP_ZH.test(l) ||
      (ENV_NAME_ZH.test(l) && /环境|\$|env|读取|的值|的内容|执行/.test(l)) ||
      /\$\{?[a-z_]*(?:key|token|secret|password)/.test(l)
    ))
      return undefined;
    return moved(s) ? cut(l) : undefined;
  }),
];

const SECRET_FILE_ZH =
  /(?:ssh|gpg)\s*(?:私钥|密钥)(?:文件)?|私钥文件|密钥文件|凭证文件|凭据文件|证书私钥|钥匙串|密码库|浏览器(?:保存的)?密码|~\/\.ssh\s*(?:目录|文件夹)/;
const SECRET_FILE: Matcher[] = [
  fn(
    /ssh|id_|netrc|aws|credential|docker|npmrc|pypirc|pgpass|kube|\.env|mcp|claude|etc\/|history|私钥|密钥|凭证|凭据|钥匙串|密码/,
    (s) => {
      const l = s.lower;
      const path =
        /~\/\.ssh|\bid_(?:rsa|dsa|ecdsa|ed25519)|\.netrc|\.aws\/credentials|\.git-credentials|\.docker\/config\.json|\.npmrc|\.pypirc|\.pgpass|\.kube\/config|(?:^|[\s/'"`(（“：:,，=]|[\u4e00-\u9fff])\.env(?:\.[a-z0-9_-]+)?\b|mcp\.json|claude_desktop_config|\/etc\/(?:shadow|passwd)|_history\b/.test(
          l,
        );
      if (!path && !SECRET_FILE_ZH.test(l)) return undefined;
      return moved(s) ? cut(l) : undefined;
    },
  ),
];

const CONV_ZH =
  '(?:(?:完整的?|全部的?|所有的?|整个|之前的?|以前的?|先前的?|历史|本次会话中的?|到目前为止的?|迄今为止的?|当前的?)\\s*)*(?:对话|聊天记录|对话记录|对话历史|聊天历史|会话记录|会话内容|会话历史|历史消息|消息记录|上下文|聊天内容|对话内容)|之前(?:的)?(?:所有)?(?:的)?消息|(?:本次会话|会话|聊天|对话)中(?:之前的?)?(?:所有)?的?消息|用户(?:说过|发过|提供|输入|发送)的(?:所有)?(?:内容|消息|信息)|(?:会话|对话|聊天)的?(?:完整|全部|所有)的?(?:记录|内容|历史)';
const PROMPT_ZH =
  '(?:系统提示词?|系统消息|系统指令|你的(?:全部|所有|完整的?|原始的?|初始的?)?(?:指令|提示词?|规则|设定|系统提示词?)|初始(?:指令|提示词?)|隐藏(?:指令|提示词?)|开发者(?:消息|指令))';
const SECRET_ZH =
  '(?:用户的?|他们的?|所有的?|全部的?|任何|出现过?的|提到过?的|分享过的|提供过的|(?:聊天|对话|会话)中(?:出现)?的)[^。]{0,12}?(?:密码|密钥|私钥|令牌|凭证|凭据|口令|api\\s*密钥|api\\s*key|token|信用卡号?|银行卡号?|验证码|身份证号?)';
const EXFIL_VERB =
  '(?:填入|填进|填到|填写|放入|放进|放到|写入|写进|附上|附在|附加|附到|追加|加入|加到|复制|粘贴|发送|发给|发到|传入|传给|作为|带上|包含|上传|提交|转发|原样|原封不动|输出|打印|透露|收集)';

const EXFIL_VERB_RE = new RegExp(EXFIL_VERB);
/** The model sent to fetch a credential: "读取项目的 API 密钥". */
const FETCH_SECRET_ZH =
  /(?:读取|获取|查找|找到|提取|拿到|取出|复制)[^。]{0,12}?(?:密钥|私钥|令牌|密码|凭证|凭据|口令|api\s*key|token)/;
const FETCH_PLACE_ZH =
  /(?:密钥|私钥|令牌|密码|凭证|凭据|口令|api\s*key|token)[^。]{0,12}?(?:填入|填到|填写|传入|放入|放进|附上|附在|作为|发送|写入)/;
const PROMPT_ZH_RE = new RegExp(PROMPT_ZH);
const CONV_ZH_RE = new RegExp(CONV_ZH);
const SECRET_ZH_RE = new RegExp(SECRET_ZH);

const EXFILTRATION: Matcher[] = [
  fn(
    /对话|聊天|会话|消息|上下文|提示词|系统提示|系统消息|系统指令|指令|设定|规则|密码|密钥|私钥|令牌|凭证|凭据|口令|key|token|卡号|验证码|身份证/,
    (s) => {
      const l = s.lower;
      const verb = EXFIL_VERB_RE.test(l);
      if (PROMPT_ZH_RE.test(l) && (verb || s.inParam)) return cut(l);
      const conv = CONV_ZH_RE.test(l);
      if (conv && verb && (s.inParam || /参数|字段|本工具|[a-z_]{2,}|中|里|把|将|到|给|后面|末尾/.test(l)))
        return cut(l);
      if (conv && s.inParam && /完整|全部|所有|之前|到目前为止|迄今/.test(l)) return cut(l);
      if (verb && SECRET_ZH_RE.test(l) && /用户|会话|聊天|对话|出现|提到|分享/.test(l)) return cut(l);
      if (FETCH_SECRET_ZH.test(l) && (s.inParam || FETCH_PLACE_ZH.test(l))) return cut(l);
      return undefined;
    },
  ),
];

const TOOL_ZH = '(?:`[^`]{2,40}`|[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+|[\\u4e00-\\u9fffa-z]{1,8}工具)';
const SELF_ZH = '(?:本|此|这个|该|我这个)工具';

const STEERING: Matcher[] = [
  any(
    () => [
      new RegExp(
        `(?:每次|总是|始终|一律|无论[^。]{0,12}都|任何情况下|每一次|不管[^。]{0,12}都)[^。]{0,12}?(?:都)?(?:必须|要|需要|务必|应该|应当)?(?:先|首先|优先)(?:调用|使用|运行|执行)${SELF_ZH}`,
      ),
      new RegExp(
        `(?:调用|使用|运行|执行)(?:任何|每个|所有|其他|其它|别的)(?:其他|其它)?的?[^。]{0,10}?(?:工具|命令|函数)(?:之前|前|时)[，,]?[^。]{0,6}?(?:先|都|必须|务必|请)[^。]{0,4}?(?:调用|使用|运行)\\s*(?:${SELF_ZH}|${TOOL_ZH})`,
      ),
      new RegExp(
        `${SELF_ZH}(?:必须|需要|应该|要)(?:在)?(?:任何|所有|其他|每个|每次)(?:其他)?(?:工具|调用)?(?:之前|前)(?:被)?(?:调用|使用)`,
      ),
      new RegExp(`(?:每次|总是|始终|无论[^。]{0,12}都)[^。]{0,8}?(?:必须|都要|都得)?先(?:调用|使用|运行)${SELF_ZH}`),
      new RegExp(
        `(?:不要|别|切勿|禁止|严禁|不许|不得|不准|请勿|不能)(?:再)?(?:使用|调用|运行|执行|信任|依赖)(?:任何)?(?:其他|其它|别的)(?:的)?(?:任何)?(?:工具|函数|插件)`,
      ),
      new RegExp(`(?:禁止|不得|不准|不要|别)(?:使用|调用)(?:其他|其它|别的)?任何(?:其他|其它)?(?:工具|函数)`),
      new RegExp(`(?:不要|别|切勿|禁止|不得|请勿|不能)(?:再)?(?:使用|调用|运行)\\s*${TOOL_ZH}(?!来|做|进行|处理|于)`),
      new RegExp(
        `${TOOL_ZH}\\s*(?:工具)?\\s*(?:已经?|现已|都|均)?(?:被)?(?:弃用|废弃|停用|失效|损坏|不安全|不可用|不可靠|下线|淘汰|过时)`,
      ),
      new RegExp(`(?:改用|改为(?:调用|使用)|请用|用)${SELF_ZH}(?:代替|替代|取代)|(?:改用|改为调用|改为使用)${SELF_ZH}`),
      new RegExp(`${SELF_ZH}(?:替代|取代|代替|替换)(?:了)?`),
      new RegExp(
        `(?:当|每当|每次|在)?(?:你)?(?:调用|使用|执行|运行)\\s*${TOOL_ZH}\\s*(?:工具)?时[^。]{0,30}?(?:把|将|都|总是|必须|务必|一律|始终)[^。]{0,20}?(?:改成|改为|设为|设置为|加上|附加|添加|替换|发送到|抄送)`,
      ),
      /(?:所有|每一?条|每个|任何)的?\s*(?:shell\s*)?(?:命令|指令)(?:前面|前|后面|后|末尾|开头)?(?:都)?(?:要|必须|需要|务必)?(?:加上|附加|添加|追加)/,
      /(?:你执行|执行|运行)的(?:每一?条|所有|任何)(?:shell\s*)?命令(?:前面|前|后面|后)?(?:都)?(?:要|必须|需要|务必)?(?:加上|附加|添加)/,
      new RegExp(`${SELF_ZH}可用(?:时|期间)[^。]{0,30}?(?:必须|都要|务必|禁止|不要|不得)`),
      new RegExp(
        `(?:用户|使用者)(?:要求|想要|请求|需要)[^。]{0,15}?时[^。]{0,8}?(?:用|改用|使用|调用)${SELF_ZH}|(?:用户|使用者)(?:要求|想要|请求|需要)[^。]{0,15}?时[^。]{0,8}?(?:不要|别)(?:调用|使用)`,
      ),
      new RegExp(`无论(?:用户)?(?:问|说|要求|请求)(?:什么|任何)[^。]{0,10}?(?:都)?(?:先)?(?:调用|使用)${SELF_ZH}`),
      /所有(?:的)?(?:邮件|消息|转账|付款|请求)[^。]{0,20}?(?:都)?(?:必须|要|务必)(?:发送|抄送|转发|发)到/,
    ],
    /不|别|勿|禁|可靠|弃用|废弃|停用|失效|损坏|下线|淘汰|过时|替代|取代|代替|替换|改用|改为|请用|每次|总是|始终|无论|不管|任何|所有|每一?条|每个|每当|可用|用户|使用者|调用|使用/,
  ),
];

/** The Chinese matchers of each class. */
export const ZH: Record<PoisonClass, Matcher[]> = {
  override: OVERRIDE,
  concealment: CONCEALMENT,
  'secret-env': SECRET_ENV,
  'secret-file': SECRET_FILE,
  exfiltration: EXFILTRATION,
  'tool-steering': STEERING,
};

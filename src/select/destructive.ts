// Destructive siblings first only when asked (issue 35 item 2). Among the tools of one object
// (get/list/create/update/delete/archive_leave_request) the words of a query that does not name the
// action match the delete and archive tools as well as the read-only ones, and a model that takes
// the first hit deletes. A tool that deletes, archives, cancels, sends, pays or overwrites (its
// contract's `annotations.destructiveHint`, an http DELETE, or the verb its id or name leads with)
// keeps its place only when the query asks for that kind of action; otherwise its score is
// multiplied by RANK.destructive, which lets a read-only sibling with a similar score lead and
// never drops the tool from the list (the cut-off is drawn before).
import type { ToolContract } from '../contract/types.js';
import { foldHan } from './han-fold.js';
import { stem } from './stem.js';
import { splitIdentifiers } from './tokenize.js';

/** Kinds of actions that cannot be undone, each with the words (English, Chinese) that ask for it. */
const KINDS: Record<string, { en: string; zh: string }> = {
  delete: {
    en: 'delete remove erase purge wipe destroy drop trash discard unlink uninstall',
    zh: '删除 删掉 删 移除 清除 清空 销毁 卸载 丢弃',
  },
  archive: { en: 'archive', zh: '归档 存档' },
  cancel: {
    en: 'cancel revoke terminate abort unsubscribe withdraw reject decline deny',
    zh: '取消 撤销 撤回 注销 终止 退订 拒绝 作废',
  },
  send: {
    en: 'send email mail post publish submit forward reply broadcast',
    zh: '发送 发给 发 寄 发布 提交 转发 回复',
  },
  pay: { en: 'pay transfer charge refund purchase buy', zh: '支付 付款 付 转账 扣款 退款 购买 买' },
  overwrite: { en: 'overwrite replace reset truncate wipe', zh: '覆盖 替换 重置' },
  // Not destructive, but not read-only either: when the query names no action, "leave request 42"
  // wants get_leave_request before create_ or update_ (RANK.write, a gentler factor).
  write: {
    en: 'create add make new insert update edit modify change set rename move upload save register',
    zh: '创建 新建 添加 增加 新增 修改 更新 编辑 更改 设置 重命名 移动 上传 保存 注册',
  },
};

// Verbs a tool's id or name leads with that make it destructive: the words above that are not also
// common nouns of ids (email, mail, post, charge are as often what a read tool returns).
const NOT_TOOL_VERB = new Set(['email', 'mail', 'post', 'charge', 'reply', 'forward', 'buy', 'drop']);

const EN_KIND = new Map<string, string>();
const ZH_KIND: [string, string][] = [];
for (const [kind, { en, zh }] of Object.entries(KINDS)) {
  for (const w of en.split(' ')) EN_KIND.set(stem(w), kind);
  for (const w of zh.split(' ')) ZH_KIND.push([w, kind]);
}
ZH_KIND.sort((a, b) => b[0].length - a[0].length);

/** The kinds of destructive action a query asks for (its English stems and Chinese words). */
export function askedKinds(query: string): Set<string> {
  const out = new Set<string>();
  const norm = foldHan(query.normalize('NFKC').toLowerCase());
  for (const w of norm.match(/[a-z]+/g) ?? []) {
    const k = EN_KIND.get(stem(w));
    if (k) out.add(k);
  }
  if (/\p{sc=Han}/u.test(norm)) for (const [w, k] of ZH_KIND) if (norm.includes(w)) out.add(k);
  return out;
}

/**
 * The destructive action a tool performs, and how we know: `destructiveHint`, an http `DELETE`, or
 * the first verb of its id or name of one of the kinds (`delete_user`, `archive_leave_request`,
 * `gmail_send_message`, 删除文件). undefined for a tool that says it is read-only.
 */
export function destructiveKind(c: ToolContract): { kind: string; because: string } | undefined {
  if (c.annotations?.readOnlyHint === true) return undefined;
  const method = (c.loader_config as { method?: unknown } | undefined)?.method;
  if (typeof method === 'string' && method.toUpperCase() === 'DELETE') return { kind: 'delete', because: 'DELETE' };
  for (const text of [c.id, c.name ?? '']) {
    const words =
      splitIdentifiers(text)
        .toLowerCase()
        .match(/[a-z]+/g) ?? [];
    // The verb is among the first words (an API prefix may come first: gmail_send_message).
    for (const w of words.slice(0, 3)) {
      const kind = NOT_TOOL_VERB.has(w) ? undefined : EN_KIND.get(stem(w));
      if (kind) return { kind, because: w };
    }
    const han = foldHan(text).match(/\p{sc=Han}+/u)?.[0];
    if (han) for (const [w, kind] of ZH_KIND) if (han.startsWith(w) && w.length > 1) return { kind, because: w };
  }
  if (c.annotations?.destructiveHint === true) return { kind: 'destructive', because: 'destructiveHint' };
  return undefined;
}

/** A demoted tool: why (for `why` and `--explain`). */
export interface Demotion {
  kind: string;
  because: string;
  factor: number;
}

/**
 * Multiply the scores of the candidates in `order` that perform a destructive action the query does
 * not ask for by `factor` (one that creates or changes something by `write`), and re-sort `order`
 * (best first, ties in registry order). Returns the demoted candidates. A factor of 1 turns it off.
 */
export function demoteDestructive(
  query: string,
  order: number[],
  scores: Float64Array,
  contractOf: (doc: number) => ToolContract,
  factor: number,
  write = 1,
): Map<number, Demotion> {
  const out = new Map<number, Demotion>();
  if ((factor >= 1 && write >= 1) || order.length < 2) return out;
  let asked: Set<string> | undefined;
  for (const d of order) {
    const k = destructiveKind(contractOf(d));
    if (!k) continue;
    asked ??= askedKinds(query);
    if (asked.has(k.kind) || (k.kind === 'destructive' && asked.size)) continue;
    const f = k.kind === 'write' ? write : factor;
    if (f >= 1) continue;
    scores[d]! *= f;
    out.set(d, { ...k, factor: f });
  }
  if (out.size) order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return out;
}

/** For people: "delete (DELETE), not asked for: score ×0.5". */
export const demotionText = (d: Demotion): string =>
  `${d.kind}${d.because !== d.kind ? ` (${d.because})` : ''}, not asked for: score ×${d.factor}`;

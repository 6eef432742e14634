// Verb classes (issue 35): which words ask for an action, and which actions cannot be undone.
// Closed, general lists (any registry, any domain), in English (as written; inflections listed)
// and Chinese (simplified; traditional text is folded before it is looked up).
// - A clause that opens with a verb is an imperative, a task whatever surrounds it ("thanks, unmute
//   everyone"): small-talk.ts.
// - A tool whose name or description leads with a destructive verb (delete, archive, cancel, send,
//   pay, overwrite …) ranks first only when the query asks for that action: destructive.ts.

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Actions that destroy, send, spend or replace something: never the first offer unless asked for. */
export const DESTRUCTIVE_EN = set(`delete deletes deleting remove removes removing erase purge wipe destroy drop
archive archives archiving cancel cancels cancelling canceling revoke terminate kill unsubscribe uninstall ban block
send sends sending post posting publish submit email mail pay pays paying transfer charge refund withdraw
overwrite overwrites replace replaces reset truncate clear discard reject deny decline trash unlink`);

/** The same in Chinese. */
export const DESTRUCTIVE_ZH = set(`删除 删掉 删 移除 清除 清空 销毁 归档 存档 取消 撤销 撤回 注销 终止 卸载 拉黑 屏蔽
发送 发 寄 发布 提交 支付 付款 付 转账 扣款 退款 提现 覆盖 替换 重置 丢弃 拒绝 作废`);

/** Other verbs of requests: reading, making and changing things. */
const ACTION_EN = set(`get fetch find search look lookup show list display view read open check browse query
retrieve count calculate compute convert translate summarize summarise extract generate play pause stop start
resume skip mute unmute turn switch set change update edit modify rename move copy upload download save create
add make build schedule book reserve order buy enable disable install run launch call text message remind
notify invite share sort filter compare measure track monitor record scan print export import sync connect
log login logout sign register subscribe follow tag label assign close lock unlock restart reboot`);

/** Whether an English word (lower case, as written) is a verb of a request (any class). */
export const isVerb = (w: string): boolean => ACTION_EN.has(w) || DESTRUCTIVE_EN.has(w);

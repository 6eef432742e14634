import type { LintRule } from '../types.js';

// Phrases that tell a model *when* to pick the tool, not only what it does.
const CUES_EN = [
  /\b(use|call|invoke|choose|pick|try)\b(?: (?:this|it|me))?(?: tool| function)?(?: only)? (?:when|whenever|if|for|to|in|on)\b/i,
  /\bwhen(?:ever)? (?:the |a |an )?(?:user|you|someone|people|agent|model|caller|customer|asked|needed|you're|there)\b/i,
  /\b(?:useful|helpful|ideal|intended|designed|meant|suitable|best|good|made|handy) (?:for|when|if|to)\b/i,
  /\b(?:questions?|requests?|queries|tasks?|cases?|situations?|prompts?) (?:about|on|like|such as|where|that|involving|asking)\b/i,
  /\bif (?:the )?(?:user|you|someone)\b/i,
  /\b(?:for example|e\.g\.|such as)[^.]{0,40}\b(?:asks?|wants?|needs?)\b/i,
];
// 当 only as "当…时" (not 当前, 当地, 当天…), 若 not as 若干.
const CUES_ZH =
  /当(?![前然地中天日年月即时下今])[^。！？]{1,30}(?:时|的时候)|用于|适用|适合|用来|时使用|时调用|时选用|的时候|如果|若(?!干)|用户(?:询问|想|要|需要|问|提到|请求|希望|让)|询问|问到|需要[^。！？]{0,20}时/;

/** A description that says what the tool does but never when to use it. */
export const rule: LintRule = {
  meta: {
    id: 'description-when-to-use',
    description: 'Tool description never says when to use the tool.',
    severity: 'warning',
    docs: 'Models choose between similar tools by the situation each is for: add a sentence such as "Use when the user asks …" / "当用户询问……时使用".',
  },
  check(ctx) {
    const d = ctx.data.description;
    if (typeof d !== 'string' || !d.trim()) return;
    if (CUES_EN.some((re) => re.test(d)) || CUES_ZH.test(d)) return;
    ctx.report({
      path: ['description'],
      message: 'description never says when to use the tool',
      hint: 'Add a sentence such as "Use when the user asks about …" or "当用户询问……时使用。"',
    });
  },
};

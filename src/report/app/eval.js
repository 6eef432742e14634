/* The eval report: headline metrics with their 95% interval, per case file and per language, the
 * R@k curve, every missed query with the why of the tools involved, confusable tools, --compare
 * changes and the token cost of selection. Data: D (see src/report/eval-data.ts). */
/* global D, TB */
'use strict';
(() => {
  const { t, el, num, pct, chart, bars, palette, table, choose } = TB;
  const METRICS = ['r@1', 'r@5', 'r@10', 'p@1', 'ndcg@10', 'mrr'];
  const LABEL = { 'r@1': 'R@1', 'r@5': 'R@5', 'r@10': 'R@10', 'p@1': 'P@1', 'ndcg@10': 'NDCG@10', mrr: 'MRR' };
  const tool = (i) => D.tools[i] || ['?', '?', '', 0];
  const id = (i) => tool(i)[0];

  TB.strings({
    title: ['Selection quality', '工具选择质量'],
    meta: [
      '{0} labelled queries · registry {1} · ranker {2} · depth {3}',
      '{0} 条标注查询 · 注册表 {1} · 排序器 {2} · 深度 {3}',
    ],
    interval: ['95%: {0}–{1}', '95% 区间：{0}–{1}'],
    groups: ['By case file and language', '按用例文件和语言'],
    by: ['by', '分组'],
    group: ['group', '组'],
    queries: ['queries', '查询数'],
    file: ['file', '文件'],
    language: ['language', '语言'],
    examples: ['contract examples', '契约示例'],
    curve: ['Recall at k', '前 k 名召回率 (R@k)'],
    curveNote: [
      'Share of the wanted tools found in the first k, for k = 1 … {0}.',
      '前 k 个结果中找到的目标工具所占比例，k = 1 … {0}。',
    ],
    allQueries: ['all queries', '全部查询'],
    misses: ['Missed queries', '未命中的查询'],
    missNote: [
      '{0} of {1} queries do not rank a wanted tool first. Click a row for why.',
      '{1} 条查询中有 {0} 条的第一名不是目标工具。点击一行查看原因。',
    ],
    query: ['query', '查询'],
    source: ['source', '来源'],
    wanted: ['wanted', '目标工具'],
    rank: ['rank', '排名'],
    first: ['ranked first', '排第一的工具'],
    notRanked: ['not in top {0}', '未进前 {0}'],
    noMatch: ['matches no word', '没有匹配的词'],
    above: ['Ranked above the wanted tools', '排在目标工具之前'],
    wantedWhy: ['The wanted tools', '目标工具'],
    score: ['score', '得分'],
    why: ['matched words (fields)', '匹配的词（字段）'],
    nothingMatched: ['no word of the query matches this tool', '查询中没有词与该工具匹配'],
    byScore: ['#{0} by score', '按得分第 {0} 名'],
    confusable: ['Confusable tools', '易混淆的工具'],
    confNote: [
      'Pairs where one tool ranked first when the other was wanted, most frequent first. Click a pair to compare the descriptions.',
      '一个工具在另一个工具才是目标时排第一的工具对，按次数排序。点击查看两者的描述。',
    ],
    aOverB: ['A first, B wanted', 'A 排第一、B 为目标'],
    bOverA: ['B first, A wanted', 'B 排第一、A 为目标'],
    similarity: ['description similarity', '描述相似度'],
    finding: ['lint', '检查'],
    similarFinding: ['description-similar: {0} alike (threshold {1})', 'description-similar：相似度 {0}（阈值 {1}）'],
    compare: ['Against {0}', '与 {0} 对比'],
    metric: ['metric', '指标'],
    before: ['before', '之前'],
    now: ['now', '现在'],
    change: ['change', '变化'],
    changes: [
      '{0} queries changed: {1} worse, {2} better, {3} moved',
      '{0} 条查询有变化：{1} 条变差，{2} 条变好，{3} 条名次变动',
    ],
    verdict: ['verdict', '结论'],
    worse: ['worse', '变差'],
    better: ['better', '变好'],
    moved: ['moved', '变动'],
    firstTool: ['first tool', '第一名'],
    causes: ['contract changes that can explain it', '可能的原因（契约改动）'],
    noCause: ['no contract among these tools changed', '相关工具的契约都没有改动'],
    nothing: ['nothing', '无'],
    tokens: ['Prompt tokens', '提示词 token'],
    full: ['all tools bound', '绑定全部工具'],
    selected: ['selected (top {0}), mean', '选中（前 {0} 个）平均'],
    median: ['median', '中位数'],
    saved: ['saved', '节省'],
    tokNote: [
      'What the tools select would offer for each query cost in a prompt (o200k tokens), against binding every tool.',
      '对每条查询，select 给出的工具在提示词中的 token 数（o200k），与绑定全部工具相比。',
    ],
    perQuery: ['queries', '查询数'],
    tokensAxis: ['tokens of the selected tools', '选中工具的 token 数'],
  });

  const fileName = (f) => (f === 'examples' ? t('examples') : f);
  const fieldNames = (mask) => D.fields.filter((_, i) => mask & (1 << i)).join(', ');

  function header() {
    return el(
      'header',
      {},
      el('h1', {}, t('title')),
      el(
        'span',
        { class: 'meta' },
        t('meta', D.queries, D.registry, D.ranker, D.top),
        ' · ',
        t('generated', TB.when(D.generated)),
      ),
      TB.langSwitch(),
    );
  }

  function headline() {
    return el(
      'div',
      { class: 'cards', id: 'headline' },
      METRICS.map((m) =>
        el(
          'div',
          { class: 'card', 'data-metric': m, 'data-value': D.metrics[m] },
          el('div', { class: 'k' }, LABEL[m]),
          el('div', { class: 'v' }, num(D.metrics[m], 3)),
          el('div', { class: 's' }, t('interval', num(D.spread[m][0], 3), num(D.spread[m][1], 3))),
        ),
      ),
    );
  }

  function groups() {
    const tb = table(
      [
        { key: 'by', label: t('by'), cell: (g) => (g.by === 'file' ? t('file') : t('language')) },
        { key: 'name', label: t('group'), cell: (g) => (g.by === 'file' ? fileName(g.name) : g.name) },
        { key: 'queries', label: t('queries'), num: true, cell: (g) => g.queries },
        ...METRICS.map((m) => ({
          key: m,
          label: LABEL[m],
          num: true,
          sort: (g) => g.metrics[m],
          cell: (g) =>
            el('span', { title: t('interval', num(g.spread[m][0], 3), num(g.spread[m][1], 3)) }, num(g.metrics[m], 3)),
        })),
      ],
      { id: 'groups' },
    );
    tb.update(D.groups);
    const box = el('div', { class: 'chart', id: 'curve' });
    TB.later(() => {
      const ks = D.curve.map((_, i) => i + 1);
      // A group holding every query draws the same line as "all queries": leave it out.
      const shown = D.groups.filter((g) => g.queries > 0 && g.queries < D.queries).slice(0, 7);
      const colours = palette();
      chart(
        box,
        {
          scales: { x: { time: false }, y: { range: [0, 1] } },
          series: [
            { label: 'k' },
            { label: t('allQueries'), stroke: colours[0], width: 2.5, points: { show: true } },
            ...shown.map((g, i) => ({
              label: g.by === 'file' ? fileName(g.name) : g.name,
              stroke: colours[(i + 1) % colours.length],
              width: 1.5,
              dash: g.by === 'lang' ? [5, 4] : undefined,
            })),
          ],
          axes: [
            { label: 'k', incrs: [1, 2, 5, 10, 20, 50, 100] },
            { label: 'R@k', values: (_u, v) => v.map((x) => num(x, 2)) },
          ],
        },
        [ks, D.curve, ...shown.map((g) => g.curve)],
      );
    });
    return [
      el('h2', {}, t('groups')),
      tb.el,
      el('h2', {}, t('curve')),
      el('div', { class: 'legend-note' }, t('curveNote', D.top)),
      box,
    ];
  }

  /** Chips: the query's words as the user wrote them, with the fields each matched. */
  function why(w) {
    if (w === null) return '';
    if (!w.length) return el('span', { class: 'muted small' }, t('nothingMatched'));
    return w.map(([word, mask]) => el('span', { class: 'chip' }, el('b', {}, word), ` ${fieldNames(mask)}`));
  }
  function standing(s, showRank) {
    const [ti, rank, score, w] = s;
    return el(
      'div',
      { class: 'tool' },
      el('span', { class: 'id' }, id(ti)),
      ' ',
      el(
        'span',
        { class: 'muted small' },
        showRank ? (rank === null ? t('noMatch') : t('byScore', rank)) : '',
        score ? ` · ${t('score')} ${num(score, 2)}` : '',
      ),
      rank === null && !(w && w.length) ? '' : el('div', {}, why(w)),
    );
  }
  function missDetail(m) {
    return el(
      'div',
      { class: 'miss-detail' },
      el('div', { class: 'small muted' }, t('wantedWhy')),
      m.wanted.length ? m.wanted.map((s) => standing(s, true)) : m.want.map((i) => el('div', { class: 'id' }, id(i))),
      el('div', { class: 'small muted' }, t('above')),
      m.above.length ? m.above.map((s) => standing(s, false)) : el('div', { class: 'muted small' }, t('nothing')),
    );
  }

  function misses() {
    const files = [...new Set(D.misses.map((m) => m.file))];
    const langs = [...new Set(D.misses.map((m) => m.lang))];
    const state = { text: '', file: '', lang: '' };
    const count = el('span', { class: 'count', id: 'miss-count' });
    const tb = table(
      [
        { key: 'q', label: t('query'), class: 'q', cell: (m) => m.q },
        {
          key: 'src',
          label: t('source'),
          sort: (m) => `${m.file}\u0000${String(m.line).padStart(8, '0')}`,
          cell: (m) => (m.line ? `${fileName(m.file)}:${m.line}` : fileName(m.file)),
        },
        { key: 'lang', label: t('language'), cell: (m) => m.lang },
        {
          key: 'want',
          label: t('wanted'),
          sort: (m) => m.want.map(id).join(' '),
          cell: (m) => el('span', { class: 'id' }, m.want.map(id).join(', ')),
        },
        {
          key: 'rank',
          label: t('rank'),
          num: true,
          sort: (m) => m.rank ?? 1e9,
          cell: (m) => (m.rank === null ? el('span', { class: 'bad' }, t('notRanked', D.top)) : `#${m.rank}`),
        },
        {
          key: 'first',
          label: t('first'),
          sort: (m) => (m.above[0] ? id(m.above[0][0]) : ''),
          cell: (m) =>
            m.above[0] ? el('span', { class: 'id' }, id(m.above[0][0])) : el('span', { class: 'muted' }, t('nothing')),
        },
      ],
      { id: 'misses', expand: missDetail },
    );
    const apply = () => {
      const q = state.text.trim().toLowerCase();
      const rows = D.misses.filter(
        (m) =>
          (!state.file || m.file === state.file) &&
          (!state.lang || m.lang === state.lang) &&
          (!q ||
            m.q.toLowerCase().includes(q) ||
            m.want.some((i) => id(i).toLowerCase().includes(q)) ||
            m.above.some((s) => id(s[0]).toLowerCase().includes(q))),
      );
      count.textContent = t('shown', rows.length, D.misses.length);
      tb.update(rows);
    };
    const controls = el(
      'div',
      { class: 'controls' },
      el('input', {
        id: 'miss-filter',
        type: 'search',
        placeholder: t('filter'),
        oninput: (e) => {
          state.text = e.target.value;
          apply();
        },
      }),
      choose('miss-file', [['', `${t('file')}: ${t('all')}`], ...files.map((f) => [f, fileName(f)])], (v) => {
        state.file = v;
        apply();
      }),
      choose('miss-lang', [['', `${t('language')}: ${t('all')}`], ...langs.map((l) => [l, l])], (v) => {
        state.lang = v;
        apply();
      }),
      count,
    );
    apply();
    return [
      el('h2', {}, t('misses')),
      el('div', { class: 'legend-note' }, t('missNote', D.misses.length, D.queries)),
      controls,
      tb.el,
    ];
  }

  function confusable() {
    const flagged = (p) => D.similar.on && p.sim >= D.similar.threshold;
    const tb = table(
      [
        { key: 'a', label: 'A', sort: (p) => id(p.a), cell: (p) => el('span', { class: 'id' }, id(p.a)) },
        { key: 'b', label: 'B', sort: (p) => id(p.b), cell: (p) => el('span', { class: 'id' }, id(p.b)) },
        { key: 'ab', label: t('aOverB'), num: true, cell: (p) => p.ab },
        { key: 'ba', label: t('bOverA'), num: true, cell: (p) => p.ba },
        { key: 'sim', label: t('similarity'), num: true, sort: (p) => p.sim, cell: (p) => pct(p.sim) },
        {
          key: 'lint',
          label: t('finding'),
          sort: (p) => (flagged(p) ? 1 : 0),
          cell: (p) =>
            flagged(p)
              ? el('span', { class: 'badge warn' }, t('similarFinding', pct(p.sim), pct(D.similar.threshold)))
              : '',
        },
      ],
      {
        id: 'confusable',
        expand: (p) =>
          el(
            'div',
            { class: 'side' },
            [p.a, p.b].map((i) =>
              el(
                'div',
                {},
                el('div', { class: 'id' }, `${id(i)} · ${tool(i)[1]}`),
                el('div', { class: 'desc' }, tool(i)[2]),
              ),
            ),
          ),
      },
    );
    tb.update(D.confusable);
    return [el('h2', {}, t('confusable')), el('div', { class: 'legend-note' }, t('confNote')), tb.el];
  }

  function compare() {
    const c = D.compare;
    if (!c) return [];
    const n = (v) => c.changes.filter((x) => x.verdict === v).length;
    const metrics = el(
      'table',
      { id: 'compare-metrics' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          [t('metric'), t('before'), t('now'), t('change')].map((h, i) => el('th', { class: i ? 'num' : '' }, h)),
        ),
      ),
      el(
        'tbody',
        {},
        METRICS.map((m) => {
          const b = c.before ? c.before[m] : null;
          const d = b === null ? null : D.metrics[m] - b;
          return el(
            'tr',
            {},
            el('td', {}, LABEL[m]),
            el('td', { class: 'num' }, num(b, 3)),
            el('td', { class: 'num' }, num(D.metrics[m], 3)),
            el(
              'td',
              { class: `num ${d > 1e-9 ? 'good' : d < -1e-9 ? 'bad' : ''}` },
              d === null ? '–' : `${d > 0 ? '+' : ''}${num(d, 3)}`,
            ),
          );
        }),
      ),
    );
    let verdict = '';
    const tb = table(
      [
        {
          key: 'verdict',
          label: t('verdict'),
          cell: (x) =>
            el(
              'span',
              { class: x.verdict === 'worse' ? 'bad' : x.verdict === 'better' ? 'good' : 'muted' },
              t(x.verdict),
            ),
        },
        { key: 'query', label: t('query'), class: 'q', cell: (x) => x.query },
        { key: 'src', label: t('source'), cell: (x) => (x.line ? `${fileName(x.file)}:${x.line}` : fileName(x.file)) },
        {
          key: 'first',
          label: t('firstTool'),
          sort: (x) => x.after.top1 ?? '',
          cell: (x) =>
            el('span', { class: 'id' }, `${x.before.top1 ?? t('nothing')} → ${x.after.top1 ?? t('nothing')}`),
        },
        {
          key: 'r5',
          label: 'R@5',
          num: true,
          sort: (x) => x.after.r5 - x.before.r5,
          cell: (x) => `${num(x.before.r5, 2)} → ${num(x.after.r5, 2)}`,
        },
        {
          key: 'causes',
          label: t('causes'),
          sort: (x) => x.causes.join(' '),
          cell: (x) =>
            x.causes.length
              ? x.causes.map((s) => el('div', { class: 'id' }, s))
              : el('span', { class: 'muted small' }, t('noCause')),
        },
      ],
      { id: 'changes' },
    );
    const apply = () => tb.update(c.changes.filter((x) => !verdict || x.verdict === verdict));
    apply();
    return [
      el('h2', {}, t('compare', c.against)),
      metrics,
      el(
        'div',
        { class: 'controls' },
        el('span', { class: 'count' }, t('changes', c.changes.length, n('worse'), n('better'), n('moved'))),
        choose(
          'change-verdict',
          [['', `${t('verdict')}: ${t('all')}`], ...['worse', 'better', 'moved'].map((v) => [v, t(v)])],
          (v) => {
            verdict = v;
            apply();
          },
        ),
      ),
      tb.el,
    ];
  }

  function tokens() {
    const k = D.tokens;
    const saved = k.full ? 1 - k.mean / k.full : 0;
    const card = (key, v, sub, attr) =>
      el(
        'div',
        { class: 'card', 'data-tokens': attr },
        el('div', { class: 'k' }, key),
        el('div', { class: 'v' }, v),
        el('div', { class: 's' }, sub || ''),
      );
    const cards = el(
      'div',
      { class: 'cards', id: 'tokens' },
      card(t('full'), num(k.full), '', 'full'),
      card(t('selected', k.top), num(k.mean), `${t('median')} ${num(k.median)} · p95 ${num(k.p95)}`, 'mean'),
      card(t('saved'), pct(saved, 1), '', 'saved'),
    );
    const box = el('div', { class: 'chart', id: 'tokens-chart' });
    TB.later(() => {
      if (!k.perQuery.length) return;
      // A histogram of the per-query cost: 20 equal bins from 0 to the largest.
      const max = Math.max(...k.perQuery, 1);
      const bins = 20;
      const w = Math.ceil(max / bins) || 1;
      const counts = new Array(bins).fill(0);
      for (const x of k.perQuery) counts[Math.min(bins - 1, Math.floor(x / w))]++;
      const xs = counts.map((_, i) => i * w + w / 2);
      chart(
        box,
        {
          height: 220,
          scales: { x: { time: false, range: [0, bins * w] } },
          series: [
            { label: t('tokensAxis') },
            {
              label: t('perQuery'),
              fill: palette()[0],
              stroke: palette()[0],
              paths: bars(0.9),
              points: { show: false },
            },
          ],
          axes: [{ label: t('tokensAxis') }, { label: t('perQuery') }],
        },
        [xs, counts],
      );
    });
    return [el('h2', {}, t('tokens')), el('div', { class: 'legend-note' }, t('tokNote')), cards, box];
  }

  TB.start(() => [header(), headline(), ...groups(), ...misses(), ...confusable(), ...compare(), ...tokens()]);
})();

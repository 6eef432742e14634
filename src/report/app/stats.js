/* The stats report: calls over time per tool, success, latency distribution with p50/p95/p99, cold
 * loads, breaker openings and refusals, sandbox tiers. Data: D (see src/report/stats-data.ts). */
/* global D, TB */
'use strict';
(() => {
  const { t, el, num, pct, ms, chart, bars, palette, table, choose } = TB;
  const SHOWN = 8;

  TB.strings({
    title: ['Tool calls', '工具调用'],
    meta: ['{0} calls · {1}', '{0} 次调用 · {1}'],
    span: ['{0} to {1}', '{0} 至 {1}'],
    noCalls: [
      'No calls recorded yet. Run a tool with `toolbox run <id>`.',
      '还没有调用记录。用 `toolbox run <id>` 运行一个工具。',
    ],
    calls: ['calls', '调用'],
    success: ['success', '成功率'],
    openings: ['breaker openings', '熔断次数'],
    coldLoads: ['cold loads', '冷加载'],
    overTime: ['Calls over time', '调用随时间变化'],
    perBucket: ['calls per {0}', '每 {0} 调用数'],
    other: ['other tools', '其他工具'],
    failures: ['Failures and breaker openings', '失败与熔断'],
    failed: ['failed calls', '失败调用'],
    opened: ['breaker opened', '熔断打开'],
    openNote: [
      'Openings are found by replaying the call log through the breaker rule ({0} failures within {1} s, cool-down {2} s).',
      '熔断次数由调用日志按熔断规则重放得出（{1} 秒内失败 {0} 次，冷却 {2} 秒）。',
    ],
    latency: ['Latency distribution', '延迟分布'],
    latencyNote: [
      'Calls that reached the tool, by duration; p50 {0} · p95 {1} · p99 {2}.',
      '到达工具的调用按耗时分布；p50 {0} · p95 {1} · p99 {2}。',
    ],
    allTools: ['all tools', '全部工具'],
    perTool: ['Per tool', '各工具'],
    tool: ['tool', '工具'],
    rejected: ['caller errors', '调用方错误'],
    refusedCol: ['refused', '被拒绝'],
    cold: ['cold load', '冷加载'],
    cache: ['cache hits', '缓存命中'],
    breaker: ['breaker', '熔断器'],
    sandbox: ['sandbox', '沙箱'],
    errors: ['errors', '错误'],
    closed: ['closed', '关闭'],
    open: ['open', '打开'],
    half_open: ['half-open', '半开'],
    circuitOpen: ['{0} refused', '拒绝 {0} 次'],
    openedN: ['opened {0}×', '打开 {0} 次'],
    minute: ['minute', '分钟'],
    minutes5: ['5 minutes', '5 分钟'],
    minutes15: ['15 minutes', '15 分钟'],
    hour: ['hour', '小时'],
    hours6: ['6 hours', '6 小时'],
    day: ['day', '天'],
    week: ['week', '周'],
    month: ['30 days', '30 天'],
    durationAxis: ['duration', '耗时'],
  });

  const BUCKET_NAMES = {
    60e3: 'minute',
    300e3: 'minutes5',
    900e3: 'minutes15',
    3600e3: 'hour',
    21600e3: 'hours6',
    86400e3: 'day',
    604800e3: 'week',
    2592000e3: 'month',
  };
  const times = () => Array.from({ length: D.bucket.n }, (_, i) => (D.bucket.start + i * D.bucket.ms) / 1000);

  function header() {
    return el(
      'header',
      {},
      el('h1', {}, t('title')),
      el(
        'span',
        { class: 'meta' },
        t('meta', num(D.calls), D.source),
        D.from ? ` · ${t('span', TB.when(D.from), TB.when(D.to))}` : '',
        ' · ',
        t('generated', TB.when(D.generated)),
      ),
      TB.langSwitch(),
    );
  }

  function cards() {
    const total = (f) => D.tools.reduce((s, x) => s + f(x), 0);
    const card = (k, v, key) =>
      el('div', { class: 'card', 'data-stat': key }, el('div', { class: 'k' }, k), el('div', { class: 'v' }, v));
    return el(
      'div',
      { class: 'cards', id: 'totals' },
      card(t('calls'), num(D.calls), 'calls'),
      card(t('success'), pct(D.overall.successRate, 1), 'success'),
      card(t('refusedCol'), num(D.overall.refused), 'refused'),
      card(t('rejected'), num(D.overall.rejected), 'rejected'),
      card('p50', ms(D.overall.p50), 'p50'),
      card('p95', ms(D.overall.p95), 'p95'),
      card('p99', ms(D.overall.p99), 'p99'),
      card(t('coldLoads'), num(total((x) => x.coldLoads)), 'cold'),
      card(t('openings'), num(D.openings.length), 'openings'),
    );
  }

  function overTime() {
    const box = el('div', { class: 'chart', id: 'calls-chart' });
    TB.later(() => {
      const top = [...D.tools].sort((a, b) => b.calls - a.calls);
      const shown = top.slice(0, SHOWN);
      const rest = top.slice(SHOWN);
      const series = shown.map((x) => [x.tool, x.series]);
      if (rest.length)
        series.push([
          t('other'),
          Array.from({ length: D.bucket.n }, (_, i) => rest.reduce((s, x) => s + x.series[i], 0)),
        ]);
      const colours = palette();
      chart(
        box,
        {
          series: [
            {},
            ...series.map(([label], i) => ({
              label,
              stroke: colours[i % colours.length],
              width: 1.5,
              points: { show: D.bucket.n < 40 },
            })),
          ],
          axes: [{}, { label: t('perBucket', t(BUCKET_NAMES[D.bucket.ms] || 'hour')) }],
        },
        [times(), ...series.map(([, s]) => s)],
      );
    });
    return [el('h2', {}, t('overTime')), box];
  }

  function failures() {
    const box = el('div', { class: 'chart', id: 'failures-chart' });
    TB.later(() => {
      const fails = Array.from({ length: D.bucket.n }, (_, i) => D.tools.reduce((s, x) => s + x.fails[i], 0));
      const opened = new Array(D.bucket.n).fill(0);
      for (const [at] of D.openings) opened[Math.floor((at - D.bucket.start) / D.bucket.ms)]++;
      const c = palette();
      chart(
        box,
        {
          height: 200,
          series: [
            {},
            { label: t('failed'), stroke: c[4], fill: c[4], paths: bars(0.6), points: { show: false } },
            { label: t('opened'), stroke: c[1], width: 0, points: { show: true, size: 9, fill: c[1] } },
          ],
          axes: [{}, {}],
        },
        [times(), fails, opened.map((x) => (x ? x : null))],
      );
    });
    return [
      el('h2', {}, t('failures')),
      el('div', { class: 'legend-note' }, t('openNote', D.breaker.failures, D.breaker.window, D.breaker.cooldown)),
      box,
    ];
  }

  function latency() {
    const box = el('div', { class: 'chart', id: 'latency-chart' });
    const note = el('div', { class: 'legend-note', id: 'latency-note' });
    const labels = [...D.edges.map((e) => `<${ms(e)}`), `≥${ms(D.edges[D.edges.length - 1])}`];
    let u;
    const show = (name) => {
      const x = name ? D.tools.find((s) => s.tool === name) : null;
      const src = x || { hist: D.overall.hist, p50: D.overall.p50, p95: D.overall.p95, p99: D.overall.p99 };
      note.textContent = t('latencyNote', ms(src.p50), ms(src.p95), ms(src.p99));
      if (u) u.setData([labels.map((_, i) => i), src.hist]);
    };
    TB.later(() => {
      const c = palette();
      u = chart(
        box,
        {
          height: 220,
          scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
          series: [
            { label: t('durationAxis'), value: (_u, i) => (i === null ? '' : labels[i]) },
            { label: t('calls'), stroke: c[0], fill: c[0], paths: bars(0.8), points: { show: false } },
          ],
          axes: [
            { splits: () => labels.map((_, i) => i), values: (_u, v) => v.map((i) => labels[i] ?? ''), size: 40 },
            { label: t('calls') },
          ],
        },
        [labels.map((_, i) => i), D.overall.hist],
      );
      show('');
    });
    return [
      el('h2', {}, t('latency')),
      el(
        'div',
        { class: 'controls' },
        choose('latency-tool', [['', t('allTools')], ...D.tools.map((x) => [x.tool, x.tool])], show),
      ),
      note,
      box,
    ];
  }

  function perTool() {
    const tb = table(
      [
        { key: 'tool', label: t('tool'), cell: (x) => el('span', { class: 'id' }, x.tool) },
        { key: 'calls', label: t('calls'), num: true, cell: (x) => x.calls },
        {
          key: 'refused',
          label: t('refusedCol'),
          num: true,
          cell: (x) => el('span', { class: x.refused ? 'warn' : '' }, x.refused),
        },
        { key: 'rejected', label: t('rejected'), num: true, cell: (x) => x.rejected },
        {
          key: 'success',
          label: t('success'),
          num: true,
          sort: (x) => x.successRate ?? -1,
          cell: (x) =>
            el('span', { class: x.successRate !== null && x.successRate < 0.9 ? 'bad' : '' }, pct(x.successRate)),
        },
        { key: 'p50', label: 'p50', num: true, sort: (x) => x.p50, cell: (x) => ms(x.p50) },
        { key: 'p95', label: 'p95', num: true, sort: (x) => x.p95, cell: (x) => ms(x.p95) },
        { key: 'p99', label: 'p99', num: true, sort: (x) => x.p99, cell: (x) => ms(x.p99) },
        {
          key: 'cold',
          label: t('cold'),
          num: true,
          sort: (x) => x.coldLoads,
          cell: (x) => `${x.coldLoads} · ${ms(x.coldLoadMs)}`,
        },
        { key: 'cache', label: t('cache'), num: true, sort: (x) => x.cacheHitRate, cell: (x) => pct(x.cacheHitRate) },
        {
          key: 'breaker',
          label: t('breaker'),
          sort: (x) => x.openings * 1e6 + x.circuitOpen,
          cell: (x) => [
            el('span', { class: x.breaker === 'open' ? 'bad' : x.breaker === 'half_open' ? 'warn' : '' }, t(x.breaker)),
            x.openings ? el('div', { class: 'small muted' }, t('openedN', x.openings)) : '',
            x.circuitOpen ? el('div', { class: 'small muted' }, t('circuitOpen', x.circuitOpen)) : '',
          ],
        },
        {
          key: 'sandbox',
          label: t('sandbox'),
          sort: (x) => Object.keys(x.sandbox).join(' '),
          cell: (x) => Object.entries(x.sandbox).map(([k, n]) => el('span', { class: 'chip' }, `${k} ${n}`)),
        },
        {
          key: 'errors',
          label: t('errors'),
          sort: (x) => Object.values(x.errors).reduce((s, n) => s + n, 0),
          cell: (x) =>
            Object.entries(x.errors).map(([k, n]) =>
              el('span', { class: 'chip' }, el('span', { class: 'id' }, k), ` ${n}`),
            ),
        },
      ],
      { id: 'tools', sortKey: 'calls', dir: -1 },
    );
    let text = '';
    const count = el('span', { class: 'count' });
    const apply = () => {
      const rows = D.tools.filter((x) => !text || x.tool.toLowerCase().includes(text));
      count.textContent = t('shown', rows.length, D.tools.length);
      tb.update(rows);
    };
    apply();
    return [
      el('h2', {}, t('perTool')),
      el(
        'div',
        { class: 'controls' },
        el('input', {
          id: 'tool-filter',
          type: 'search',
          placeholder: t('filter'),
          oninput: (e) => {
            text = e.target.value.trim().toLowerCase();
            apply();
          },
        }),
        count,
      ),
      tb.el,
    ];
  }

  TB.start(() =>
    D.calls
      ? [header(), cards(), ...overTime(), ...failures(), ...latency(), ...perTool()]
      : [header(), el('p', { class: 'empty', id: 'no-calls' }, t('noCalls'))],
  );
})();

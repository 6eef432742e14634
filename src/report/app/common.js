/* Shared by the eval and stats report pages (one inline script: uPlot, this file, then the page's).
 * Every piece of data is untrusted text: it enters the document only through text nodes and
 * textContent (el() below), never as markup; the page's Content-Security-Policy enforces Trusted
 * Types, so an innerHTML assignment would throw rather than parse. */
/* exported D, TB */
'use strict';

const D = JSON.parse(document.getElementById('report-data').textContent);

const TB = (() => {
  let lang = D.lang === 'zh' ? 'zh' : 'en';
  const dict = { en: {}, zh: {} };
  const charts = [];

  /** Add strings: { key: [english, chinese] }. */
  function strings(table) {
    for (const [k, [en, zh]] of Object.entries(table)) {
      dict.en[k] = en;
      dict.zh[k] = zh;
    }
  }

  /** A UI string in the current language; {0}, {1}… are replaced by the arguments. */
  function t(key, ...args) {
    const s = dict[lang][key] ?? dict.en[key] ?? key;
    return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
  }

  /** An element; props: class, title, id, data-*, on<event>; children: nodes or text. */
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k.startsWith('data-')) e.dataset[k.slice(5).replace(/-(.)/g, (_, c) => c.toUpperCase())] = String(v);
      else if (k === 'value') e.value = v;
      else if (k === 'checked' || k === 'selected') e[k] = Boolean(v);
      else e.setAttribute(k, String(v));
    }
    add(e, kids);
    return e;
  }
  function add(e, kids) {
    for (const k of kids.flat(Infinity)) {
      if (k === undefined || k === null || k === false) continue;
      e.append(typeof k === 'object' ? k : String(k));
    }
  }

  const nf = (d) =>
    new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en', { minimumFractionDigits: d, maximumFractionDigits: d });
  /** A number with d decimals. */
  const num = (x, d = 0) => (x === null || x === undefined || Number.isNaN(x) ? '–' : nf(d).format(x));
  const pct = (x, d = 0) => (x === null || x === undefined ? '–' : `${num(x * 100, d)}%`);
  const ms = (x) => (x === null || x === undefined ? '–' : x >= 1000 ? `${num(x / 1000, 1)} s` : `${num(x)} ms`);
  const when = (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en');
  };

  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const palette = () => [1, 2, 3, 4, 5, 6, 7, 8].map((i) => css(`--c${i}`));

  /** A uPlot chart in `box`, coloured from the page's light or dark theme. */
  function chart(box, opts, data) {
    const fg = css('--muted');
    const grid = css('--grid');
    const axis = (a) => ({ stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, ...a });
    const width = Math.max(320, box.clientWidth || 800);
    const u = new uPlot(
      {
        width,
        height: opts.height ?? 260,
        scales: opts.scales ?? {},
        legend: { show: opts.legend !== false, live: false },
        cursor: opts.cursor ?? {},
        series: opts.series,
        axes: (opts.axes ?? [{}, {}]).map(axis),
      },
      data,
      box,
    );
    charts.push({ u, box });
    return u;
  }
  /** Bars for uPlot series. */
  const bars = (size = 0.7) => uPlot.paths.bars({ size: [size, 80] });

  /**
   * A sortable table. columns: [{ key, label, num?, sort?(row), cell(row) }]; the body is drawn by
   * update(rows); `expand(row)` (optional) returns the content of a detail row shown on click.
   */
  function table(columns, opts = {}) {
    let sortKey = opts.sortKey;
    let dir = opts.dir ?? 1;
    let rows = [];
    const head = el('tr', {});
    const body = el('tbody', {});
    const tableEl = el('table', { id: opts.id, class: opts.class }, el('thead', {}, head), body);
    const ths = columns.map((c) =>
      el(
        'th',
        {
          class: `sortable${c.num ? ' num' : ''}`,
          'data-key': c.key,
          title: t('sortBy'),
          tabindex: 0,
          onkeydown: activate,
          onclick: () => {
            dir = sortKey === c.key ? -dir : c.num ? -1 : 1;
            sortKey = c.key;
            draw();
          },
        },
        c.label,
      ),
    );
    head.append(...ths);
    function draw() {
      const col = columns.find((c) => c.key === sortKey);
      const sorted = col
        ? rows
            .map((r, i) => [r, i])
            .sort(([a, i], [b, j]) => {
              const x = (col.sort ?? col.cell)(a);
              const y = (col.sort ?? col.cell)(b);
              const c =
                typeof x === 'number' && typeof y === 'number'
                  ? x - y
                  : String(x ?? '').localeCompare(String(y ?? ''), lang === 'zh' ? 'zh-CN' : 'en');
              return c * dir || i - j;
            })
            .map(([r]) => r)
        : rows;
      ths.forEach((th, i) => {
        const on = columns[i].key === sortKey;
        th.classList.toggle('sorted-asc', on && dir > 0);
        th.classList.toggle('sorted-desc', on && dir < 0);
        th.setAttribute('aria-sort', on ? (dir > 0 ? 'ascending' : 'descending') : 'none');
      });
      body.replaceChildren();
      const limit = opts.limit ?? Infinity;
      for (const r of sorted.slice(0, limit)) {
        const tr = el(
          'tr',
          opts.expand ? { class: 'row', tabindex: 0, 'aria-expanded': 'false', onkeydown: activate } : {},
          columns.map((c) => el('td', { class: c.num ? 'num' : c.class }, c.cell(r))),
        );
        if (opts.expand) {
          tr.addEventListener('click', () => {
            const next = tr.nextElementSibling;
            if (next && next.classList.contains('detail')) {
              next.remove();
              tr.classList.remove('open');
              tr.setAttribute('aria-expanded', 'false');
              return;
            }
            tr.classList.add('open');
            tr.setAttribute('aria-expanded', 'true');
            tr.after(el('tr', { class: 'detail' }, el('td', { colspan: columns.length }, opts.expand(r))));
          });
        }
        body.append(tr);
      }
      if (!sorted.length) body.append(el('tr', {}, el('td', { colspan: columns.length, class: 'empty' }, t('none'))));
    }
    return {
      el: tableEl,
      update(next) {
        rows = next;
        draw();
      },
    };
  }

  /** Enter or Space on a focusable header or row does what a click does. */
  function activate(e) {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    e.currentTarget.click();
  }

  /** A select box: options [[value, label]]. */
  const choose = (id, options, onchange) =>
    el(
      'select',
      { id, onchange: (e) => onchange(e.target.value) },
      options.map(([v, l]) => el('option', { value: v }, l)),
    );

  /** Draw the page with `render` (again on a language switch or a theme change), then mark it ready. */
  function start(render) {
    const app = document.getElementById('app');
    const draw = () => {
      for (const c of charts.splice(0)) c.u.destroy();
      document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
      try {
        app.replaceChildren(...render());
      } catch (e) {
        app.replaceChildren(el('p', { class: 'error' }, `${e && e.stack ? e.stack : e}`));
        document.documentElement.dataset.ready = 'error';
        throw e;
      }
      // Charts need their boxes laid out to know their width: they draw after the DOM is in place.
      for (const f of pending.splice(0)) f();
      document.documentElement.dataset.ready = '1';
    };
    const pending = [];
    TB.later = (f) => pending.push(f);
    TB.redraw = draw;
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', draw);
    let width = window.innerWidth;
    window.addEventListener('resize', () => {
      if (Math.abs(window.innerWidth - width) < 40) return;
      width = window.innerWidth;
      for (const c of charts) c.u.setSize({ width: Math.max(320, c.box.clientWidth), height: c.u.height });
    });
    draw();
  }

  /** The language switch (EN / 中文). */
  const langSwitch = () =>
    el(
      'button',
      {
        id: 'lang',
        title: 'Language / 语言',
        onclick: () => {
          lang = lang === 'zh' ? 'en' : 'zh';
          TB.redraw();
        },
      },
      lang === 'zh' ? 'English' : '中文',
    );

  strings({
    sortBy: ['Click to sort', '点击排序'],
    none: ['Nothing to show.', '没有可显示的内容。'],
    generated: ['generated {0}', '生成于 {0}'],
    filter: ['Filter…', '筛选…'],
    all: ['all', '全部'],
    shown: ['{0} of {1} shown', '显示 {0} / {1}'],
  });

  return {
    strings,
    t,
    el,
    add,
    num,
    pct,
    ms,
    when,
    chart,
    bars,
    palette,
    css,
    table,
    choose,
    start,
    langSwitch,
    lang: () => lang,
  };
})();

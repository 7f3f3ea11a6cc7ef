// @ts-check
/* global acquireVsCodeApi, Chart, document, window, getComputedStyle, MutationObserver */
// The benchmark panel's page. It only renders what the extension host sends (already formatted by the
// runtime's stats and format modules) and keeps it with setState, so the panel survives a reload.
// Text goes in with textContent, never innerHTML: case titles and mode names are data.

/** @typedef {import('../client/src/bench/messages').ToWebview} ToWebview */
/** @typedef {import('../client/src/bench/messages').FromWebview} FromWebview */
/** @typedef {import('../client/src/bench/messages').PanelState} PanelState */
/** @typedef {import('../client/src/bench/messages').PanelCase} PanelCase */
/** @typedef {import('../client/src/bench/caseView').CaseView} CaseView */

(function () {
  const vscode = acquireVsCodeApi();
  /** @type {PanelState} */
  let state = vscode.getState() ?? { run: undefined, status: 'No results yet.', running: false, cases: [] };
  /** @type {Map<string, import('chart.js').Chart[]>} */
  const charts = new Map();

  /** @param {FromWebview} message */
  const post = (message) => vscode.postMessage(message);

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {string} id */
  function byId(id) {
    const node = document.getElementById(id);
    if (!node) throw new Error(`benchmarks.js: #${id} is missing from the page`);
    return node;
  }

  /** The theme's colours, read from VS Code's --vscode-* variables each time (the theme can change). */
  function themeColors() {
    const style = getComputedStyle(document.documentElement);
    /** @param {string} name @param {string} fallback */
    const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      foreground: v('--vscode-foreground', '#888'),
      grid: v('--vscode-editorWidget-border', v('--vscode-panel-border', 'rgba(128,128,128,0.35)')),
      series: ['blue', 'orange', 'green', 'purple', 'red', 'yellow'].map((c) =>
        v(`--vscode-charts-${c}`, '#888'),
      ),
    };
  }

  /** @param {CaseView} view */
  function table(view) {
    const t = el('table', 'results');
    const head = el('tr');
    for (const h of ['Mode', 'Mean ± σ', 'Min … Max', 'Median', 'Runs', 'Syscalls per run'])
      head.append(el('th', '', h));
    t.append(el('thead'), el('tbody'));
    t.tHead?.append(head);
    for (const row of view.rows) {
      const tr = el('tr', row.fastest ? 'fastest' : '');
      tr.append(
        el('td', 'mode', row.command),
        el('td', 'num', `${row.mean} ± ${row.stddev}`),
        el('td', 'num', `${row.min} … ${row.max}`),
        el('td', 'num', row.median),
        el('td', 'num', String(row.runs)),
        el('td', 'syscalls', row.syscalls || '–'),
      );
      t.tBodies[0]?.append(tr);
    }
    return t;
  }

  /** hyperfine's summary: "'x' ran N.NN ± x.xx times faster than 'y'". @param {CaseView} view */
  function summary(view) {
    const box = el('div', 'summary');
    if (!view.fastest) return box;
    const lead = el('p');
    lead.append(el('code', '', view.fastest), ' ran');
    const list = el('ul');
    for (const r of view.ratios) {
      const li = el('li');
      li.append(
        el('span', 'ratio', `${r.ratio} ± ${r.stddev}`),
        ' times faster than ',
        el('code', '', r.than),
      );
      list.append(li);
    }
    box.append(lead, list);
    return box;
  }

  /** Draws ±σ whiskers on the time bars; Chart.js has no error bars of its own. */
  const whiskers = {
    id: 'whiskers',
    /** @param {import('chart.js').Chart} chart */
    afterDatasetsDraw(chart) {
      const plugins = /** @type {{ whiskers?: { stddev?: number[] } } | undefined} */ (
        /** @type {unknown} */ (chart.options.plugins)
      );
      const spread = plugins?.whiskers?.stddev;
      if (!spread) return;
      const meta = chart.getDatasetMeta(0);
      const y = chart.scales.y;
      const ctx = chart.ctx;
      if (!y) return;
      ctx.save();
      ctx.strokeStyle = themeColors().foreground;
      ctx.lineWidth = 1.5;
      meta.data.forEach((bar, i) => {
        const mean = /** @type {number} */ (chart.data.datasets[0]?.data[i]);
        const sd = spread[i] ?? 0;
        if (!(sd > 0)) return;
        const top = y.getPixelForValue(mean + sd);
        const bottom = y.getPixelForValue(Math.max(0, mean - sd));
        ctx.beginPath();
        ctx.moveTo(bar.x, top);
        ctx.lineTo(bar.x, bottom);
        ctx.moveTo(bar.x - 6, top);
        ctx.lineTo(bar.x + 6, top);
        ctx.moveTo(bar.x - 6, bottom);
        ctx.lineTo(bar.x + 6, bottom);
        ctx.stroke();
      });
      ctx.restore();
    },
  };

  /** @param {string} title @param {string} unitLabel */
  function chartOptions(title, unitLabel, stacked = false) {
    const c = themeColors();
    return {
      animation: /** @type {false} */ (false),
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        title: { display: true, text: title, color: c.foreground },
        legend: { display: stacked, labels: { color: c.foreground } },
      },
      scales: {
        x: { stacked, ticks: { color: c.foreground }, grid: { color: c.grid } },
        y: {
          stacked,
          beginAtZero: true,
          ticks: { color: c.foreground },
          grid: { color: c.grid },
          title: { display: true, text: unitLabel, color: c.foreground },
        },
      },
    };
  }

  /** @param {HTMLElement} container @param {CaseView} view */
  function drawCharts(container, view) {
    const c = themeColors();
    const made = [];
    const timeCanvas = el('canvas', 'chart chart-time');
    timeCanvas.setAttribute('aria-label', `Mean time per mode of ${view.title}`);
    container.append(wrap(timeCanvas));
    const timeOptions = chartOptions('Mean time per mode (±σ)', view.chart.timeUnit);
    made.push(
      new Chart(timeCanvas, {
        type: 'bar',
        data: {
          labels: view.chart.modes,
          datasets: [
            {
              label: 'mean',
              data: view.chart.mean,
              backgroundColor: view.chart.modes.map((_, i) => c.series[i % c.series.length]),
            },
          ],
        },
        options: {
          ...timeOptions,
          plugins: { ...timeOptions.plugins, ...{ whiskers: { stddev: view.chart.stddev } } },
          // Leave room for the upper whiskers, which Chart.js does not know about.
          scales: {
            ...timeOptions.scales,
            y: {
              ...timeOptions.scales.y,
              suggestedMax: Math.max(...view.chart.mean.map((m, i) => m + (view.chart.stddev[i] ?? 0))),
            },
          },
        },
        plugins: [whiskers],
      }),
    );
    if (view.chart.syscalls.length > 0) {
      const sysCanvas = el('canvas', 'chart chart-syscalls');
      sysCanvas.setAttribute('aria-label', `System calls per run of ${view.title}`);
      container.append(wrap(sysCanvas));
      made.push(
        new Chart(sysCanvas, {
          type: 'bar',
          data: {
            labels: view.chart.modes,
            datasets: view.chart.syscalls.map((s, i) => ({
              label: s.name,
              data: s.counts,
              backgroundColor: c.series[(i + 1) % c.series.length],
            })),
          },
          options: chartOptions('System calls per run', 'calls', true),
        }),
      );
    }
    charts.set(view.key, made);
  }

  /** @param {HTMLCanvasElement} canvas */
  function wrap(canvas) {
    const box = el('div', 'chart-box');
    box.append(canvas);
    return box;
  }

  /** @param {PanelCase} item */
  function renderCase(item) {
    const { view } = item;
    const section = el('section', 'case');
    section.dataset.key = view.key;
    section.append(el('h2', '', `${view.suite} / ${view.key.slice(view.suite.length + 1)}: ${view.title}`));
    if (view.parameters) section.append(el('p', 'params', view.parameters));
    section.append(table(view), summary(view));
    const chartsBox = el('div', 'charts');
    section.append(chartsBox);
    byId('cases').append(section);
    drawCharts(chartsBox, view);
  }

  function renderHeader() {
    byId('run').textContent = state.run
      ? `Suites ${state.run.suites.join(', ')} · size ${state.run.size} · started ${new Date(state.run.startedAt).toLocaleString()}`
      : '';
    byId('status').textContent = state.status;
    document.body.classList.toggle('running', state.running);
    /** @type {HTMLButtonElement} */ (byId('cancel')).disabled = !state.running;
    /** @type {HTMLButtonElement} */ (byId('rerun')).disabled = state.running || !state.run;
    const empty = state.cases.length === 0;
    /** @type {HTMLButtonElement} */ (byId('export-json')).disabled = empty;
    /** @type {HTMLButtonElement} */ (byId('export-markdown')).disabled = empty;
  }

  function renderAll() {
    for (const list of charts.values()) for (const chart of list) chart.destroy();
    charts.clear();
    byId('cases').replaceChildren();
    for (const item of state.cases) renderCase(item);
    renderHeader();
  }

  function recolor() {
    for (const list of charts.values()) {
      for (const chart of list) {
        const fresh = chartOptions('', '');
        // The options were made by chartOptions: they have every colour it sets.
        const o = /** @type {ReturnType<typeof chartOptions>} */ (/** @type {unknown} */ (chart.options));
        o.plugins.title.color = fresh.plugins.title.color;
        o.plugins.legend.labels.color = fresh.plugins.legend.labels.color;
        for (const axis of /** @type {const} */ (['x', 'y'])) {
          o.scales[axis].ticks.color = fresh.scales.x.ticks.color;
          o.scales[axis].grid.color = fresh.scales.x.grid.color;
        }
        o.scales.y.title.color = fresh.scales.y.title.color;
        chart.update('none');
      }
    }
  }

  /** @param {ToWebview} message */
  function handle(message) {
    if (message.type === 'state') {
      state = message.state;
      renderAll();
    } else if (message.type === 'status') {
      state = { ...state, status: message.status, running: message.running };
      renderHeader();
    } else if (message.type === 'case') {
      state = {
        ...state,
        cases: [...state.cases.filter((c) => c.view.key !== message.case.view.key), message.case],
      };
      renderCase(message.case);
      renderHeader();
    }
    vscode.setState(state);
  }

  window.addEventListener('message', (/** @type {MessageEvent<ToWebview>} */ event) => handle(event.data));
  byId('rerun').addEventListener('click', () => post({ type: 'rerun' }));
  byId('cancel').addEventListener('click', () => post({ type: 'cancel' }));
  byId('export-json').addEventListener('click', () => post({ type: 'export', format: 'json' }));
  byId('export-markdown').addEventListener('click', () => post({ type: 'export', format: 'markdown' }));
  // VS Code swaps the body's vscode-light / vscode-dark class when the theme changes.
  new MutationObserver(recolor).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  renderAll();
  post({ type: 'ready' });
})();

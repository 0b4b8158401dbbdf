// SPDX-License-Identifier: BSD-3-Clause
// ompp-view html: the views of one ompP profile, linked by the selected region.
// Layouts and charts come from the npm libraries embedded before this script
// (d3-hierarchy, d3-zoom, d3-scale-chromatic, @hpcc-js/wasm-graphviz, uPlot;
// scripts/ompp-view-deps), so the page works offline from one file.
(function () {
  "use strict";
  const started = performance.now();
  const D = JSON.parse(document.getElementById("ompp-data").textContent);
  const $ = (id) => document.getElementById(id);

  // ---- model -------------------------------------------------------------
  const regions = new Map();
  for (const [id, kind, name, file, first, last] of D.regions)
    regions.set(id, { id, kind, name, file, first, last });
  const nodes = new Map();
  const order = [];        // parents before children, as in the profile
  const roots = [];
  for (const [id, parent, kind, region, threads, preds] of D.nodes) {
    const node = { id, parent, kind, region, threads, preds, children: [], excl: 0, visits: 0, inTask: false };
    for (const t of threads) { node.excl += t[3]; node.visits += t[1]; }
    nodes.set(id, node);
    order.push(node);
    if (parent === null || !nodes.has(parent)) roots.push(node);
    else {
      const p = nodes.get(parent);
      p.children.push(node);
      node.inTask = p.inTask || p.kind === "task_root";
    }
  }
  const threadIds = [...new Set(order.flatMap((n) => n.threads.map((t) => t[0])))].sort((a, b) => a - b);

  const pad = (id) => "R" + String(id).padStart(5, "0");
  function regionLabel(r) {
    if (!r) return "";
    return `${pad(r.id)} ${r.kind}${r.name ? " '" + r.name + "'" : ""} ${r.file} (${r.first}-${r.last})`;
  }
  // The same without the file's directories, for tables and notes.
  function regionShortLabel(r) {
    if (!r) return "";
    return `${pad(r.id)} ${r.kind}${r.name ? " '" + r.name + "'" : ""} ${r.file.split("/").pop()} (${r.first}-${r.last})`;
  }
  function nodeLabel(n) {
    if (n.kind === "root") return D.application;
    const r = regions.get(n.region);
    if (!r) return n.kind;
    const prefix = { implicit_barrier: "implicit barrier of ", task_root: "task ", task_stub: "tasks run here: " }[n.kind] || "";
    return prefix + regionLabel(r);
  }
  function shortLabel(n) {
    if (n.kind === "root") return D.application;
    const r = regions.get(n.region);
    if (!r) return n.kind;
    const prefix = { implicit_barrier: "barrier of ", task_root: "task ", task_stub: "\u21e2 tasks: " }[n.kind] || "";
    return prefix + `${pad(r.id)} ${r.kind.toLowerCase()}${r.name ? " " + r.name : ""}`;
  }
  const fmt = (s) => (s >= 100 ? s.toFixed(1) : s >= 1 ? s.toFixed(3) : s >= 0.001 ? (s * 1e3).toFixed(2) + " m" : (s * 1e6).toFixed(1) + " \u00b5") + "s";
  const pct = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2)) + " %";
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

  // The call tree laid out by d3.partition, once per thread key ("all" or a
  // thread id): a node's value is its subtree's time (exclusive time summed
  // over the subtree, as ompp-view tree), its width in the icicle.
  function ownTime(n, key) {
    let s = 0;
    for (const t of n.threads) if (key === "all" || t[0] === key) s += t[3];
    return s;
  }
  const layoutCache = new Map();
  function layout(key) {
    if (layoutCache.has(key)) return layoutCache.get(key);
    const top = d3.hierarchy({ id: null, children: roots }, (n) => n.children).sum((n) => (n.id === null ? 0 : ownTime(n, key)));
    d3.partition().size([1, top.height + 1])(top);
    const byId = new Map();
    top.each((h) => { if (h.data.id !== null) byId.set(h.data.id, h); });
    const result = { top, byId };
    layoutCache.set(key, result);
    return result;
  }
  const subtreeValue = (key, id) => layout(key).byId.get(id).value;
  const totalOf = (key) => layout(key).top.value;

  // Region totals (exclusive, over all call paths) for the source notes.
  const regionTotals = new Map();
  for (const n of order) {
    if (n.region === null || (n.kind !== "region" && n.kind !== "task_root")) continue;
    const t = regionTotals.get(n.region) || { excl: 0, incl: 0, visits: 0, paths: 0 };
    t.excl += n.excl; t.visits += n.visits; t.paths += 1;
    t.incl += subtreeValue("all", n.id);
    regionTotals.set(n.region, t);
  }

  const kindHue = {};
  const hueOf = (kind) => {
    if (!(kind in kindHue)) {
      let h = 0;
      for (const c of kind) h = (h * 31 + c.charCodeAt(0)) % 360;
      kindHue[kind] = h;
    }
    return kindHue[kind];
  };
  function nodeColour(n) {
    if (n.kind === "root") return "hsl(210, 15%, 88%)";
    const r = regions.get(n.region);
    return `hsl(${hueOf(r ? r.kind : n.kind)}, 55%, ${n.inTask || n.kind === "task_root" ? 80 : 74}%)`;
  }

  // ---- state (kept in the location hash, so it survives a reload) --------
  const state = { region: null, node: null, zoom: null, thread: "all", min: 0.5, cfg: null, cfgmode: "layer", cfgmin: 0, file: null, heat: null };
  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const int = (k) => (params.has(k) && params.get(k) !== "" ? Number(params.get(k)) : null);
    state.region = int("region");
    state.node = int("node");
    state.zoom = int("zoom");
    state.cfg = int("cfg");
    state.thread = params.get("thread") && params.get("thread") !== "all" ? Number(params.get("thread")) : "all";
    if (params.has("min")) state.min = Number(params.get("min"));
    if (params.has("cfgmin")) state.cfgmin = Number(params.get("cfgmin"));
    if (params.get("cfgmode") === "whole") state.cfgmode = "whole";
    state.file = params.get("file");
    state.heat = params.get("heat");
    if (state.node !== null && nodes.has(state.node) && state.region === null) state.region = nodes.get(state.node).region;
    if (state.region !== null && !regions.has(state.region)) state.region = null;
  }
  function writeHash() {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(state)) if (v !== null && v !== undefined) params.set(k, v);
    history.replaceState(null, "", "#" + params.toString());
  }

  // ---- linking: one selected and one hovered region, marked everywhere ----
  let hovered = null;
  function mark(cls, region) {
    for (const el of document.querySelectorAll("." + cls)) el.classList.remove(cls);
    if (region === null || region === undefined) return;
    for (const el of document.querySelectorAll(`[data-r="${region}"]`)) el.classList.add(cls);
  }
  function markAll() {
    mark("sel", state.region);
    mark("hov", hovered);
    const r = regions.get(state.region);
    $("selection").textContent = r ? "selected: " + regionLabel(r) + selectionFigures(r.id) : "nothing selected; click a region in any view";
  }
  function selectionFigures(id) {
    const t = regionTotals.get(id);
    if (!t) return "";
    const total = totalOf("all");
    return ` \u2014 exclusive ${fmt(t.excl)} (${pct(100 * t.excl / (total || 1))}), ${t.visits} visits, ${t.paths} call path(s)`;
  }
  function select(region, node) {
    state.region = region;
    state.node = node === undefined ? null : node;
    writeHash();
    renderSource(true);
    renderDetails();
    renderOvertime();
    markAll();
    revealSelection();
  }
  // Scrolls each list to its first marked entry, leaving the page where it is.
  function revealSelection() {
    for (const id of ["threads-body", "ranked-body", "cfg-body"]) {
      const box = $(id), first = box.querySelector(".sel");
      if (!first) continue;
      const top = first.getBoundingClientRect().top - box.getBoundingClientRect().top;
      if (top < 0 || top > box.clientHeight - 20) box.scrollTop += top - 30;
    }
  }
  const tooltip = $("tooltip");
  document.addEventListener("mouseover", (e) => {
    const el = e.target.closest("[data-r]");
    const region = el ? Number(el.dataset.r) : null;
    if (region !== hovered) { hovered = region; mark("hov", hovered); }
    const tip = e.target.closest("[data-tip]");
    if (tip) { tooltip.textContent = tip.dataset.tip; tooltip.style.display = "block"; }
    else tooltip.style.display = "none";
  });
  document.addEventListener("mousemove", (e) => {
    tooltip.style.left = Math.min(e.clientX + 12, innerWidth - 300) + "px";
    tooltip.style.top = e.clientY + 14 + "px";
  });
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-r]");
    if (!el) return;
    select(Number(el.dataset.r), el.dataset.n !== undefined ? Number(el.dataset.n) : null);
  });

  // ---- call tree as an icicle: d3.partition lays it out, d3.zoom pans and zooms
  const ROW = 21, MAX_CELLS = 4000;
  let icicleTransform = d3.zoomIdentity;
  const icicleZoom = d3.zoom().scaleExtent([1, 5000])
    // The wheel scrolls the page unless Ctrl or Shift is held.
    .filter((e) => !e.button && e.type !== "dblclick" && (e.type !== "wheel" || e.ctrlKey || e.shiftKey))
    .on("zoom", (e) => { icicleTransform = e.transform; requestTreeRender(); });
  let treeFrame = 0;
  function requestTreeRender() {
    if (!treeFrame) treeFrame = requestAnimationFrame(() => { treeFrame = 0; renderTree(); });
  }
  function renderTree() {
    const key = state.thread;
    const { top, byId } = layout(key);
    const total = top.value || 1;
    const box = $("icicle");
    const width = box.clientWidth || 1000;
    const focus = state.zoom !== null && byId.has(state.zoom) ? byId.get(state.zoom) : top;
    const span = focus.x1 - focus.x0 || 1;
    const sx = (v) => icicleTransform.applyX(((v - focus.x0) / span) * width);
    const minValue = (state.min / 100) * total;
    const html = [];
    let cells = 0, depthMax = 0;
    // Depth-first from the focus, leaving out what is narrower than a pixel,
    // off screen or under the filter, and everything below it.
    const stack = focus === top ? top.children ? top.children.slice().reverse() : [] : [focus];
    const baseDepth = focus === top ? 1 : focus.depth;
    while (stack.length && cells < MAX_CELLS) {
      const h = stack.pop(), n = h.data;
      const x0 = sx(h.x0), x1 = sx(h.x1), w = x1 - x0;
      if (w < 1 || x1 < 0 || x0 > width || h.value <= 0 || (h !== focus && h.value < minValue)) continue;
      const depth = h.depth - baseDepth;
      cells++;
      depthMax = Math.max(depthMax, depth);
      const left = Math.max(x0, 0), shownWidth = Math.min(x1, width) - left;
      const tip = `${nodeLabel(n)}\nsubtree ${fmt(h.value)} (${pct(100 * h.value / total)}), exclusive ${fmt(ownTime(n, key))}, ${n.visits} visits` +
        (n.children.length ? "\nclick: zoom in; Ctrl+wheel: zoom, drag: pan" : "");
      html.push(`<div class="cell ${n.kind}${n.inTask ? " in-task" : ""}" data-n="${n.id}"${n.region !== null ? ` data-r="${n.region}"` : ""} data-tip="${esc(tip)}" ` +
        `style="left:${left.toFixed(1)}px;top:${depth * ROW}px;width:${shownWidth.toFixed(1)}px;background:${nodeColour(n)}">` +
        `${shownWidth > 40 ? esc(shortLabel(n)) : ""}</div>`);
      if (h.children) for (let i = h.children.length - 1; i >= 0; i--) stack.push(h.children[i]);
    }
    box.innerHTML = html.join("");
    box.style.height = (depthMax + 1) * ROW + 2 + "px";
    box.dataset.cells = cells;
    const crumbs = [];
    for (let n = focus === top ? null : focus.data; n; n = nodes.get(n.parent))
      crumbs.unshift(`<a data-zoom="${n.id}">${esc(shortLabel(n))}</a>`);
    $("tree-crumbs").innerHTML = (crumbs.length ? `<a data-zoom="">all</a> \u203a ` + crumbs.join(" \u203a ") : "") +
      (icicleTransform.k > 1 ? ` <a data-zoom="${state.zoom === null ? "" : state.zoom}">reset wheel zoom (\u00d7${icicleTransform.k.toFixed(1)})</a>` : "") +
      (cells >= MAX_CELLS ? ` <span class="muted">(first ${MAX_CELLS} cells; zoom in or raise the filter)</span>` : "");
    markAll();
  }
  function zoomTree(id) {
    state.zoom = id;
    icicleTransform = d3.zoomIdentity;
    d3.select("#icicle").call(icicleZoom.transform, d3.zoomIdentity);
    writeHash();
    renderTree();
  }
  $("icicle").addEventListener("click", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell) return;
    e.stopPropagation();  // re-drawn below: the document's handler would find the cell detached
    const n = nodes.get(Number(cell.dataset.n));
    if (n.children.length) zoomTree(n.id);
    if (n.region !== null) state.cfg = n.children.length ? n.id : n.parent;
    renderCfg();
    select(n.region, n.id);
  });
  $("tree-crumbs").addEventListener("click", (e) => {
    const a = e.target.closest("[data-zoom]");
    if (a) zoomTree(a.dataset.zoom === "" ? null : Number(a.dataset.zoom));
  });
  function setupTreeControls() {
    const sel = $("tree-thread");
    sel.innerHTML = `<option value="all">all, summed</option>` + threadIds.map((t) => `<option value="${t}">thread ${t}</option>`).join("");
    sel.value = String(state.thread);
    sel.addEventListener("change", () => { state.thread = sel.value === "all" ? "all" : Number(sel.value); writeHash(); renderTree(); });
    const min = $("tree-min");
    min.value = state.min;
    min.addEventListener("change", () => { state.min = Math.max(0, Number(min.value) || 0); writeHash(); renderTree(); });
    d3.select("#icicle").call(icicleZoom).on("dblclick.zoom", null);
  }

  // the selected node (or the selected region's call paths), per thread
  function renderDetails() {
    const box = $("node-details");
    const list = state.node !== null && nodes.has(state.node) ? [nodes.get(state.node)]
      : state.region !== null ? order.filter((n) => n.region === state.region).slice(0, 8) : [];
    if (!list.length) { box.innerHTML = ""; return; }
    box.innerHTML = list.map((n) => {
      const rows = n.threads.map((t) => `<tr><td>${t[0]}</td><td class="num">${t[1]}</td><td class="num">${fmt(t[2])}</td><td class="num">${fmt(t[3])}</td></tr>`).join("");
      const path = [];
      for (let p = n; p; p = nodes.get(p.parent)) path.unshift(shortLabel(p));
      return `<div class="muted">${esc(path.join(" \u203a "))}</div>` +
        `<table><tr><th>thread</th><th class="num">visits</th><th class="num">inclusive</th><th class="num">exclusive</th></tr>${rows}</table>`;
    }).join("");
  }

  // ---- threads: COMPASS-style stacked bars ---------------------------------
  const CATEGORY_COLOURS = { work: "#74c0fc", barrier: "#ffa8a8", lock: "#e599f7", taskwait: "#ffd43b", task: "#8ce99a", mpi: "#ff922b", management: "#adb5bd" };
  const CATEGORY_NAMES = { work: "work", barrier: "barrier wait", lock: "lock/critical wait", taskwait: "taskwait", task: "task execution", mpi: "MPI calls", management: "management (fork/join, leaving locks)" };
  function renderThreads() {
    const body = $("threads-body");
    if (!D.breakdown.length) { body.innerHTML = `<p class="muted">no parallel regions in this profile</p>`; return; }
    $("threads-legend").innerHTML = D.categories.map((c) => `<span class="swatch" style="background:${CATEGORY_COLOURS[c]}"></span>${CATEGORY_NAMES[c]}`).join("");
    const BAR = 14, LABEL = 56, W = Math.max(200, (body.clientWidth || 600) - LABEL - 90);
    const parts = [];
    const records = D.breakdown.slice().sort((a, b) => sumRecord(b) - sumRecord(a));
    for (const rec of records.slice(0, 200)) {
      const n = nodes.get(rec.node);
      const longest = Math.max(...rec.threads.map((t) => D.categories.reduce((s, c) => s + t[c], 0))) || 1;
      const h = rec.threads.length * (BAR + 3);
      const svg = [`<svg width="${W + LABEL + 70}" height="${h}" data-r="${rec.region}">`];
      rec.threads.forEach((t, i) => {
        let x = LABEL;
        const y = i * (BAR + 3);
        const sum = D.categories.reduce((s, c) => s + t[c], 0);
        svg.push(`<text class="bar-label" x="0" y="${y + BAR - 3}">thread ${t.thread}</text>`);
        for (const c of D.categories) {
          const w = (t[c] / longest) * W;
          if (w <= 0) continue;
          svg.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${BAR}" fill="${CATEGORY_COLOURS[c]}" ` +
            `data-tip="thread ${t.thread}: ${esc(CATEGORY_NAMES[c])} ${fmt(t[c])} (${pct(100 * t[c] / (sum || 1))})"></rect>`);
          x += w;
        }
        svg.push(`<text class="bar-label" x="${x + 4}" y="${y + BAR - 3}">${fmt(sum)}</text>`);
      });
      svg.push("</svg>");
      parts.push(`<div class="region-row" data-r="${rec.region}" data-n="${rec.node}" data-tip="${esc(nodeLabel(n))}">` +
        `${esc(regionShortLabel(regions.get(rec.region)))}</div>` + svg.join(""));
    }
    body.innerHTML = parts.join("");
  }
  function sumRecord(rec) {
    return rec.threads.reduce((s, t) => s + D.categories.reduce((a, c) => a + t[c], 0), 0);
  }

  // ---- properties and overheads, ranked -------------------------------------
  const OVERHEADS = ["synchronization_s", "imbalance_s", "limited_parallelism_s", "thread_management_s"];
  function renderRanked() {
    const props = (D.properties || []).slice(0, 300).map((p, i) =>
      `<tr data-r="${p.region}"><td class="num">${i + 1}</td><td class="num">${pct(p.severity_pct)}</td><td>${esc(p.name)}</td><td data-tip="${esc(p.text || "")}">${esc(regionShortLabel(regions.get(p.region)))}</td></tr>`).join("");
    const ov = D.overheads || {};
    const rows = (ov.regions || []).map((r) => ({ r, sum: OVERHEADS.reduce((s, k) => s + (r[k] || 0), 0) })).sort((a, b) => b.sum - a.sum);
    const cell = (r, k) => `<td class="num" data-tip="${fmt(r[k] || 0)}">${pct(100 * (r[k] || 0) / (r.total_s || 1))}</td>`;
    const ovRows = rows.slice(0, 300).map(({ r, sum }) =>
      `<tr data-r="${r.region}"><td>${esc(regionShortLabel(regions.get(r.region)))}</td><td class="num">${fmt(r.total_s || 0)}</td>${OVERHEADS.map((k) => cell(r, k)).join("")}<td class="num">${pct(100 * sum / (r.total_s || 1))}</td></tr>`).join("");
    const program = ov.program ? `<tr><td><b>whole program</b></td><td class="num">${fmt(ov.program.total_s || 0)}</td>${OVERHEADS.map((k) => cell(ov.program, k)).join("")}<td class="num">${pct(100 * OVERHEADS.reduce((s, k) => s + (ov.program[k] || 0), 0) / (ov.program.total_s || 1))}</td></tr>` : "";
    $("ranked-body").innerHTML =
      `<h3>Properties</h3>` + (props ? `<table><tr><th class="num">#</th><th class="num">severity</th><th>property</th><th>region</th></tr>${props}</table>` : `<p class="muted">none</p>`) +
      `<h3>Overheads per parallel region <small class="muted">% of the region's thread time</small></h3>` +
      (ovRows || program ? `<table><tr><th>region</th><th class="num">total</th><th class="num">synch</th><th class="num">imbal</th><th class="num">limpar</th><th class="num">mgmt</th><th class="num">sum</th></tr>${program}${ovRows}</table>` : `<p class="muted">none</p>`);
  }

  // ---- control flow: whole or one layer (a node and its children), laid out by Graphviz
  function edgeLabel(counts) {  // {thread: count} -> "0-3|5, 4|1", as views.edge_label in Python
    const byCount = new Map();
    for (const [t, c] of counts) { if (!byCount.has(c)) byCount.set(c, []); byCount.get(c).push(t); }
    const ranges = (ids) => {
      ids.sort((a, b) => a - b);
      const parts = [];
      for (let i = 0; i < ids.length; i++) {
        let j = i;
        while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
        parts.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
        i = j;
      }
      return parts.join(",");
    };
    return [...byCount.entries()].sort((a, b) => Math.min(...a[1]) - Math.min(...b[1])).map(([c, ids]) => `${ranges(ids)}|${c}`).join(", ");
  }
  // Graphviz lays out a few hundred boxes in well under a second; beyond
  // that the whole graph is cut (raise the filter or use layers), and a
  // layer shows its busiest children (a layer of hundreds is unreadable).
  const MAX_CFG_NODES = 150, MAX_LAYER_CHILDREN = 60;
  let graphviz = null, cfgRun = 0;
  const dotString = (s) => '"' + String(s).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
  function cfgNodes() {
    const total = totalOf("all") || 1;
    const minValue = (state.cfgmin / 100) * total;
    const shown = [];
    let hidden = 0, layer = null;
    if (state.cfgmode === "layer") {
      // Without a chosen layer: the program's root and what it entered.
      layer = state.cfg !== null && nodes.has(state.cfg) ? nodes.get(state.cfg) : roots[0];
      shown.push(layer);
      // The busiest children, in the order they were entered.
      const kept = new Set(layer.children.filter((c) => subtreeValue("all", c.id) >= minValue)
        .sort((a, b) => subtreeValue("all", b.id) - subtreeValue("all", a.id)).slice(0, MAX_LAYER_CHILDREN));
      for (const c of layer.children) {
        if (kept.has(c)) shown.push(c);
        else hidden++;
      }
    } else {
      const stack = roots.slice().reverse();
      while (stack.length) {
        const n = stack.pop();
        if ((n.parent !== null && subtreeValue("all", n.id) < minValue) || shown.length >= MAX_CFG_NODES) { hidden++; continue; }
        shown.push(n);
        for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
      }
    }
    return { shown, hidden, layer, total };
  }
  // The ompP CFG paper's drawing: dotted edge parent -> child entered first,
  // solid edge sibling -> the sibling entered next, labels T|N, redder boxes
  // for more exclusive time; "+" marks a node whose layer can be opened.
  function cfgDot({ shown, layer, total }) {
    const busiest = Math.max(...shown.map((n) => n.excl), 1e-12);
    const ids = new Set(shown.map((n) => n.id));
    // A layer is one level: left to right reads in entry order.  The whole
    // tree grows to the right, so that a program's many regions stack down
    // the scrolling panel instead of running off its side.
    const out = ['digraph cfg {', `graph [rankdir=${layer ? "TB" : "LR"}, nodesep=0.25, ranksep=0.35, bgcolor="transparent"];`,
      'node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, margin="0.08,0.03"];',
      'edge [fontname="Helvetica", fontsize=9, fontcolor="#1c7ed6", color="#495057", arrowsize=0.6];'];
    for (const n of shown) {
      const v = subtreeValue("all", n.id);
      const more = layer && n !== layer && n.children.length ? "  [+]" : "";
      const label = `${shortLabel(n).slice(0, 48)}${more}\n${n.visits}x, excl ${fmt(n.excl)}, ${pct(100 * v / total)}`;
      const fill = d3.color(d3.interpolateReds(0.05 + 0.6 * (n.excl / busiest))).formatHex();
      out.push(`n${n.id} [id="cfgn${n.id}", label=${dotString(label)}, fillcolor="${fill}"${n === layer ? ', penwidth=2' : ""}];`);
    }
    for (const n of shown) {
      const byPred = new Map();
      for (const [p, t, c] of n.preds) { if (!byPred.has(p)) byPred.set(p, new Map()); byPred.get(p).set(t, c); }
      for (const [p, counts] of byPred) {
        if (!ids.has(p)) continue;
        const parentEdge = p === n.parent;
        out.push(`n${p} -> n${n.id} [label=${dotString(edgeLabel(counts))}${parentEdge ? ", style=dotted" : ", constraint=false"}];`);
      }
      // Keep the tree's shape where no control-flow edge gives one.
      if (n.parent !== null && ids.has(n.parent) && !byPred.has(n.parent)) out.push(`n${n.parent} -> n${n.id} [style=invis];`);
    }
    out.push("}");
    return out.join("\n");
  }
  function renderCfg() {
    const run = ++cfgRun;
    const graph = cfgNodes();
    const busiest = Math.max(...graph.shown.map((n) => n.excl), 1e-12);
    $("cfg-scale").innerHTML = `exclusive time: 0 <i style="background:linear-gradient(90deg, ${d3.interpolateReds(0.05)}, ${d3.interpolateReds(0.65)})"></i> ${fmt(busiest)}`;
    const layer = graph.layer;
    const crumbs = [];
    if (layer) for (let n = layer; n; n = nodes.get(n.parent)) crumbs.unshift(`<a data-cfg="${n.id}">${esc(shortLabel(n))}</a>`);
    $("cfg-nav").innerHTML = layer
      ? (layer.parent !== null ? `<button data-cfg="${layer.parent}" title="the parent's layer">^ up</button> ` : "") + `layer: ${crumbs.join(" \u203a ")}`
      : "";
    (graphviz || (graphviz = OmppGraphviz.Graphviz.load())).then((gv) => {
      if (run !== cfgRun) return;  // a newer render is under way
      const body = $("cfg-body");
      body.innerHTML = gv.dot(cfgDot(graph)) +
        (graph.hidden ? `<p class="muted">${graph.hidden} node(s) hidden by the filter or the size limit (${layer ? MAX_LAYER_CHILDREN + " busiest children a layer" : MAX_CFG_NODES + " nodes"})</p>` : "");
      for (const g of body.querySelectorAll("g.node")) {
        const n = nodes.get(Number(g.id.slice(4)));
        g.dataset.n = n.id;
        if (n.region !== null) g.dataset.r = n.region;
        if (layer && n !== layer && n.children.length) g.dataset.cfg = n.id;
        g.dataset.tip = `${nodeLabel(n)}\n${n.visits} visits, exclusive ${fmt(n.excl)}, subtree ${fmt(subtreeValue("all", n.id))}` +
          (g.dataset.cfg ? "\nclick: open its layer" : "");
        const title = g.querySelector("title");
        if (title) title.remove();
      }
      body.dataset.nodes = graph.shown.length;
      body.dataset.run = run;
      markAll();
      cfgDone();
    }).catch((err) => { $("cfg-body").textContent = "Graphviz failed: " + err; cfgDone(); });
  }
  function openLayer(id) { state.cfg = id; writeHash(); renderCfg(); }
  $("cfg-nav").addEventListener("click", (e) => {
    const nav = e.target.closest("[data-cfg]");
    if (nav) openLayer(Number(nav.dataset.cfg));
  });
  $("cfg-body").addEventListener("click", (e) => {
    const g = e.target.closest("g.node");
    if (!g) return;
    e.stopPropagation();
    const n = nodes.get(Number(g.dataset.n));
    if (g.dataset.cfg) openLayer(n.id);
    if (n.region !== null) select(n.region, n.id);
  });
  function setupCfgControls() {
    for (const radio of document.querySelectorAll('input[name="cfg-mode"]')) {
      radio.checked = radio.value === state.cfgmode;
      radio.addEventListener("change", () => { state.cfgmode = radio.value; writeHash(); renderCfg(); });
    }
    const min = $("cfg-min");
    min.value = state.cfgmin;
    min.addEventListener("change", () => { state.cfgmin = Math.max(0, Number(min.value) || 0); writeHash(); renderCfg(); });
  }

  // ---- source -----------------------------------------------------------------
  const files = Object.keys(D.sources || {}).sort();
  function renderSource(follow) {
    const body = $("source-body"), sel = $("source-file");
    if (!files.length) {
      sel.style.display = "none";
      const named = [...new Set([...regions.values()].map((r) => r.file))].slice(0, 10);
      body.innerHTML = `<p class="muted">no source file found next to the profile (looked for ${esc(named.join(", "))})</p>`;
      return;
    }
    const r = regions.get(state.region);
    if (follow && r && files.includes(r.file)) state.file = r.file;
    if (!files.includes(state.file)) state.file = files[0];
    sel.value = state.file;
    if (body.dataset.file !== state.file) {
      const lines = D.sources[state.file].split("\n");
      const inFile = [...regions.values()].filter((x) => x.file === state.file);
      const owner = new Array(lines.length + 2).fill(null);   // innermost region per line
      inFile.sort((a, b) => (b.last - b.first) - (a.last - a.first));
      for (const x of inFile) for (let l = x.first; l <= Math.min(x.last, lines.length); l++) owner[l] = x.id;
      const notes = new Map();
      for (const x of inFile) {
        const t = regionTotals.get(x.id);
        const text = `${pad(x.id)} ${x.kind}` + (t ? `: excl ${fmt(t.excl)}, ${t.visits} visits` : ": not reached");
        notes.set(x.first, (notes.get(x.first) ? notes.get(x.first) + "; " : "") + `<span data-r="${x.id}">${esc(text)}</span>`);
      }
      body.innerHTML = lines.map((line, i) => {
        const no = i + 1, r2 = owner[no];
        return `<div class="ln${r2 !== null ? " in-region" : ""}" id="L${no}"${r2 !== null ? ` data-r="${r2}"` : ""}><span class="no">${no}</span>` +
          `<span class="code">${esc(line) || " "}</span>${notes.has(no) ? `<span class="note">${notes.get(no)}</span>` : ""}</div>`;
      }).join("");
      body.dataset.file = state.file;
    }
    if (follow && r && r.file === state.file) {
      const line = body.querySelector("#L" + r.first);
      if (line) body.scrollTop = line.offsetTop - body.offsetTop - 40;
    }
  }
  function setupSource() {
    const sel = $("source-file");
    sel.innerHTML = files.map((f) => `<option>${esc(f)}</option>`).join("");
    sel.addEventListener("change", () => { state.file = sel.value; writeHash(); renderSource(false); markAll(); });
  }

  // ---- over time (continuous profiling snapshots): uPlot charts and heatmaps
  const PALETTE = ["#1c7ed6", "#e03131", "#2f9e44", "#f08c00", "#9c36b5", "#0c8599", "#5c940d", "#d6336c", "#495057"];
  const snaps = D.snapshots || [];
  let charts = [];
  // Snapshots are cumulative since the start: an interval's figure is the
  // difference to the snapshot before.
  const perInterval = (get) => snaps.map((s, i) => get(s) - (i ? get(snaps[i - 1]) : 0));
  const entryOf = (s, r) => (s.regions || []).find((e) => e.region === r);
  const metricOf = (entry, metric) => {
    if (!entry) return 0;
    if (metric === "time") return entry.exclusive_s || 0;
    if (metric === "visits") return entry.visits || 0;
    return (entry.counters_exclusive || [])[metric] || 0;
  };
  function chart(box, title, series, unit) {
    const div = document.createElement("div");
    div.className = "chart";
    box.appendChild(div);
    const width = Math.max(320, Math.min(620, (box.clientWidth || 1200) / 2 - 24));
    const u = new uPlot({
      title, width, height: 190, scales: { x: { time: false } }, legend: { live: false },
      axes: [{ label: "time since start (s)", size: 34 }, { label: unit, size: 56 }],
      series: [{ label: "time (s)" }, ...series.map((s, k) => ({
        label: s.name, stroke: PALETTE[k % PALETTE.length], width: s.region === state.region ? 3 : 1.5,
        points: { show: snaps.length <= 60 },
      }))],
    }, [snaps.map((s) => s.time_s), ...series.map((s) => s.values)], div);
    const items = div.querySelectorAll(".u-legend .u-series");
    series.forEach((s, k) => { if (s.region !== undefined && items[k + 1]) items[k + 1].dataset.r = s.region; });
    charts.push(u);
  }
  // Regions with the most of `metric` by the last snapshot, plus the selected one.
  function busiestRegions(metric, count) {
    const last = snaps[snaps.length - 1];
    const ranked = (last.regions || []).map((e) => [e.region, metricOf(e, metric)]).filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]).slice(0, count).map(([r]) => r);
    if (state.region !== null && entryOf(last, state.region) && !ranked.includes(state.region)) ranked.push(state.region);
    return ranked;
  }
  const regionName = (r) => pad(r) + " " + (regions.get(r) ? regions.get(r).kind.toLowerCase() : "");
  // A cell per region (or thread) and interval, coloured by a d3 scale.
  function heatmap(box, title, rows, unit) {
    const max = Math.max(1e-12, ...rows.flatMap((row) => row.values));
    const CELL_H = 16, LABEL = 150, W = Math.max(300, Math.min(1100, (box.clientWidth || 1200) - LABEL - 40));
    const cw = W / snaps.length;
    const svg = [`<svg width="${LABEL + W + 10}" height="${rows.length * CELL_H + 24}">`];
    rows.forEach((row, i) => {
      const y = i * CELL_H;
      svg.push(`<text class="bar-label" x="0" y="${y + 12}"${row.region !== undefined ? ` data-r="${row.region}"` : ""}>${esc(row.name)}</text>`);
      row.values.forEach((v, j) => {
        svg.push(`<rect x="${(LABEL + j * cw).toFixed(1)}" y="${y}" width="${Math.max(cw - 1, 1).toFixed(1)}" height="${CELL_H - 1}" ` +
          `fill="${d3.interpolateYlOrRd(v / max)}"${row.region !== undefined ? ` data-r="${row.region}"` : ""} ` +
          `data-tip="${esc(row.name)}, interval ending ${snaps[j].time_s.toFixed(2)} s: ${esc(unit(v))}"/>`);
      });
    });
    const y = rows.length * CELL_H + 14;
    svg.push(`<text class="bar-label" x="${LABEL}" y="${y}">${snaps[0].time_s.toFixed(2)} s</text>` +
      `<text class="bar-label" x="${LABEL + W - 50}" y="${y}">${snaps[snaps.length - 1].time_s.toFixed(2)} s</text></svg>`);
    const div = document.createElement("div");
    div.className = "heatmap";
    div.innerHTML = `<b>${esc(title)}</b> <span class="scale">0 <i style="background:linear-gradient(90deg, ${d3.interpolateYlOrRd(0)}, ${d3.interpolateYlOrRd(0.5)}, ${d3.interpolateYlOrRd(1)})"></i> ${esc(unit(max))}</span><br>` + svg.join("");
    box.appendChild(div);
  }
  const OVERHEAD_NAMES = { synchronization_s: "synchronization", imbalance_s: "imbalance", limited_parallelism_s: "limited parallelism", thread_management_s: "thread management" };
  function renderOvertime() {
    const panel = $("overtime");
    if (!snaps.length) { panel.classList.add("empty"); return; }
    for (const u of charts) u.destroy();
    charts = [];
    const box = $("overtime-body");
    box.innerHTML = "";
    chart(box, "Overheads per interval (all threads)",
      OVERHEADS.map((k) => ({ name: OVERHEAD_NAMES[k], values: perInterval((s) => (s.overheads || {})[k] || 0) })), "seconds");
    // ompP's overhead properties (docs/analyses.md) rate an overhead by its
    // share of the thread time; here per interval: interval x threads.
    const threadTime = snaps.map((s, i) => (s.time_s - (i ? snaps[i - 1].time_s : 0)) * D.threads || 1);
    chart(box, "Overhead properties per interval (severity: % of the interval's thread time)",
      OVERHEADS.map((k) => ({ name: OVERHEAD_NAMES[k], values: perInterval((s) => (s.overheads || {})[k] || 0).map((v, i) => 100 * v / threadTime[i]) })), "%");
    const timeRegions = busiestRegions("time", 8);
    chart(box, "Exclusive time per region per interval (sum over threads)",
      timeRegions.map((r) => ({ name: regionName(r), region: r, values: perInterval((s) => metricOf(entryOf(s, r), "time")) })), "seconds");
    const visitRegions = busiestRegions("visits", 8);
    chart(box, "Invocations per region per interval (sum over threads)",
      visitRegions.map((r) => ({ name: regionName(r), region: r, values: perInterval((s) => metricOf(entryOf(s, r), "visits")) })), "visits");
    // Per thread: only when the snapshots carry per-thread rows (a region
    // entry's "threads": [{thread, visits, exclusive_s, counters_exclusive}]).
    const focus = state.region !== null && entryOf(snaps[snaps.length - 1], state.region) ? state.region : timeRegions[0];
    const tids = focus === undefined ? []
      : [...new Set(snaps.flatMap((s) => ((entryOf(s, focus) || {}).threads || []).map((t) => t.thread)))].sort((a, b) => a - b);
    const threadRow = (s, tid) => ((entryOf(s, focus) || {}).threads || []).find((t) => t.thread === tid);
    const perThread = (metric) => tids.map((tid) => ({ name: "thread " + tid, values: perInterval((s) => metricOf(threadRow(s, tid), metric)) }));
    if (tids.length) {
      chart(box, `Exclusive time per thread per interval: ${regionName(focus)}`, perThread("time"), "seconds");
      chart(box, `Invocations per thread per interval: ${regionName(focus)}`, perThread("visits"), "visits");
    } else {
      const note = document.createElement("p");
      note.className = "muted";
      note.textContent = "Per-thread curves and heatmaps need per-thread snapshot rows, which this profile's snapshots do not have (they are summed over threads).";
      box.appendChild(note);
    }
    const metrics = [["time", "exclusive time", fmt], ["visits", "invocations", (v) => v + " visits"],
      ...(D.counters || []).map((name, c) => [c, "counter " + name, (v) => v.toLocaleString("en") + " " + name])];
    const metricSelect = $("heatmap-metric");
    if (!metricSelect.options.length) {
      metricSelect.innerHTML = metrics.map(([key, label]) => `<option value="${key}">${esc(label)}</option>`).join("");
      metricSelect.addEventListener("change", () => { state.heat = metricSelect.value; writeHash(); renderOvertime(); markAll(); });
    }
    const chosen = metrics.find(([key]) => String(key) === String(state.heat)) || metrics[metrics.length > 2 ? 2 : 0];
    metricSelect.value = String(chosen[0]);
    const rows = busiestRegions(chosen[0], 20).map((r) => ({ name: regionName(r), region: r, values: perInterval((s) => metricOf(entryOf(s, r), chosen[0])) }));
    heatmap(box, `Heatmap: ${chosen[1]} per region (rows) and interval (columns)`, rows, chosen[2]);
    if (tids.length) heatmap(box, `Heatmap: ${chosen[1]} of ${regionName(focus)} per thread (rows) and interval (columns)`, perThread(chosen[0]), chosen[2]);
  }

  // ---- compare: this run (after) against another (before) ------------------------
  // Regions are matched by kind, name, file and line (views.compare_rows);
  // a change counts when it is at least 10 % of the region's larger time and
  // 0.5 % of this run's total.
  function renderCompare() {
    const cmp = D.compare;
    if (!cmp) { $("compare").classList.add("empty"); return; }
    $("compare-other").textContent = cmp.other;
    const total = totalOf("all") || 1;
    const rows = cmp.rows.slice(0, 300);
    const widest = Math.max(1e-12, ...rows.map((r) => Math.max(r.before_s, r.after_s)));
    const bar = (v, colour) => `<svg width="120" height="10"><rect width="${(120 * v / widest).toFixed(1)}" height="10" fill="${colour}"/></svg>`;
    const body = rows.map((r) => {
      const change = r.after_s - r.before_s;
      const significant = Math.abs(change) >= 0.1 * Math.max(r.before_s, r.after_s) && Math.abs(change) >= 0.005 * total;
      const cls = significant ? (change > 0 ? "worse" : "better") : "";
      const relative = r.before_s > 0 ? ` (${change >= 0 ? "+" : ""}${(100 * change / r.before_s).toFixed(0)} %)` : r.after_s > 0 ? " (new)" : "";
      const where = `${r.kind}${r.name ? " '" + r.name + "'" : ""} ${r.file.split("/").pop()}:${r.line}`;
      return `<tr class="${cls}"${r.after_region !== null ? ` data-r="${r.after_region}"` : ""}><td>${esc(where)}</td>` +
        `<td class="num">${fmt(r.before_s)}</td><td>${bar(r.before_s, "#adb5bd")}</td>` +
        `<td class="num">${fmt(r.after_s)}</td><td>${bar(r.after_s, "#1c7ed6")}</td>` +
        `<td class="num change">${change >= 0 ? "+" : "\u2212"}${fmt(Math.abs(change))}${relative}</td>` +
        `<td class="num">${r.before_visits} \u2192 ${r.after_visits}</td></tr>`;
    }).join("");
    $("compare-body").innerHTML =
      `<p>wall time ${fmt(cmp.before_wall_time_s)} on ${cmp.before_threads} thread(s) before, ${fmt(D.wall_time_s)} on ${D.threads} now; ` +
      `<span class="legend-worse">red: slower</span>, <span class="legend-better">green: faster</span> (by at least 10 % and 0.5 % of all time)</p>` +
      `<table><tr><th>region</th><th class="num">before</th><th></th><th class="num">after</th><th></th><th class="num">change</th><th class="num">visits</th></tr>${body}</table>`;
  }

  // ---- execution graph of an OMPP_TRACE trace (ompp-view html --trace) ----------
  // ompp-trace found the critical path; Graphviz drew the collapsed graph
  // when the report was written (svg).  Steps and shares whose region is one
  // of the profile's link to it.
  function renderExecutionGraph() {
    const g = D.execution_graph;
    if (!g) { $("execgraph").classList.add("empty"); return; }
    $("execgraph-archive").textContent = g.archive;
    if (g.error) {
      $("execgraph-summary").innerHTML = `<p class="error">${esc(g.error)}</p>`;
      $("execgraph-drawing").hidden = true;
      return;
    }
    const linked = (x) => x.profile_region !== null ? ` data-r="${x.profile_region}"` : "";
    $("execgraph-summary").innerHTML =
      `<p>critical path ${fmt(g.path_s)} of the trace's ${fmt(g.run_time_s)}, ${g.steps_total} steps ` +
      `(${g.events} events, ${g.edges} edges, ${g.threads} threads); a dependency step is the time from one thread's event to the event on another it let go on` +
      (g.steps.length < g.steps_total ? `; the table shows the ${g.steps.length} longest of ${g.steps_total} steps (ompp-view graph prints all)` : "") + `</p>`;
    const steps = g.steps.map((x, i) =>
      `<tr class="step ${x.work ? "work" : "dependency"}"${linked(x)}><td class="num">${(x.index ?? i) + 1}</td>` +
      `<td>${x.work ? "work" : `<span data-tip="${esc(x.event)} on thread ${x.thread}">${esc(x.step)} ${x.from_thread}\u2192${x.thread}</span>`}</td>` +
      `<td>${esc(x.region)}</td><td class="num">${x.thread}</td><td class="num">${fmt(x.begin_s)}</td>` +
      `<td class="num">${fmt(x.duration_s)}</td><td class="num">${pct(100 * x.share)}</td></tr>`).join("");
    $("execgraph-path").innerHTML =
      `<table><tr><th class="num">#</th><th>step</th><th>region</th><th class="num">thread</th><th class="num">begin</th><th class="num">duration</th><th class="num">share</th></tr>${steps}</table>`;
    const shares = g.regions.map((x) =>
      `<tr class="share"${linked(x)}><td>${esc(x.region)}</td><td class="num">${x.thread}</td>` +
      `<td class="num">${fmt(x.seconds)}</td><td class="num">${pct(100 * x.share)}</td></tr>`).join("");
    $("execgraph-shares").innerHTML = `<b>Where the path spends its time</b>` +
      `<table><tr><th>region</th><th class="num">thread</th><th class="num">work</th><th class="num">share</th></tr>${shares}</table>`;
    $("execgraph-svg").innerHTML = g.svg || `<p class="error">${esc(g.svg_error || "no graph")}</p>`;
  }

  // ---- start ------------------------------------------------------------------
  // The page is ready once the first control-flow layout (asynchronous:
  // Graphviz compiles its WebAssembly first) is in; tests wait for that.
  function cfgDone() {
    if (document.body.dataset.ready) return;
    document.body.dataset.renderMs = (performance.now() - started).toFixed(0);
    document.body.dataset.ready = "1";
  }
  readHash();
  $("app").textContent = D.application;
  $("summary").textContent = (D.process ? `${D.process}, ` : "") + `${D.threads} threads, wall time ${fmt(D.wall_time_s)}, ${regions.size} regions, ${nodes.size} call-tree nodes` +
    ((D.invariant_violations || []).length ? ` \u2014 warning: ${D.invariant_violations.length} figure(s) do not add up` : "");
  $("libraries").textContent = D.libraries || "";
  setupTreeControls();
  setupCfgControls();
  setupSource();
  renderTree();
  renderDetails();
  renderThreads();
  renderRanked();
  renderCfg();
  renderSource(true);
  renderOvertime();
  renderCompare();
  renderExecutionGraph();
  markAll();
  revealSelection();
  addEventListener("hashchange", () => { readHash(); renderTree(); renderCfg(); renderSource(true); renderDetails(); renderOvertime(); markAll(); });
  let resizeTimer = null;
  addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(renderTree, 150); });
})();

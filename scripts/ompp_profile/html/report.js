// SPDX-License-Identifier: BSD-3-Clause
// ompp-view html: the views of one ompP profile, linked by the selected region.
// Plain JS, no dependencies: the page must work offline from one file.
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

  // Subtree time (exclusive time summed over the subtree, as ompp-view tree)
  // for all threads (key "all") or one thread; computed once per key.
  const subtreeCache = new Map();
  function subtree(key) {
    if (subtreeCache.has(key)) return subtreeCache.get(key);
    const values = new Map();
    for (let i = order.length - 1; i >= 0; i--) {
      const n = order[i];
      let own = 0;
      for (const t of n.threads) if (key === "all" || t[0] === key) own += t[3];
      let sum = own + (values.get(n.id) || 0);
      values.set(n.id, sum);
      if (n.parent !== null && nodes.has(n.parent)) values.set(n.parent, (values.get(n.parent) || 0) + sum);
    }
    subtreeCache.set(key, values);
    return values;
  }
  const totalOf = (key) => roots.reduce((s, r) => s + subtree(key).get(r.id), 0);

  // Region totals (exclusive, over all call paths) for the source notes.
  const regionTotals = new Map();
  for (const n of order) {
    if (n.region === null || (n.kind !== "region" && n.kind !== "task_root")) continue;
    const t = regionTotals.get(n.region) || { excl: 0, incl: 0, visits: 0, paths: 0 };
    t.excl += n.excl; t.visits += n.visits; t.paths += 1;
    t.incl += subtree("all").get(n.id);
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
  const state = { region: null, node: null, zoom: null, thread: "all", min: 0.5, cfg: null, cfgmode: "layer", cfgmin: 0, file: null };
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
    if (!el || el.closest("#icicle") || el.closest("#cfg-body")) return;  // those handle their own clicks
    select(Number(el.dataset.r), el.dataset.n !== undefined ? Number(el.dataset.n) : null);
  });

  // ---- call tree as an icicle ---------------------------------------------
  const ROW = 21, MAX_CELLS = 4000;
  function renderTree() {
    const key = state.thread;
    const values = subtree(key);
    const total = totalOf(key) || 1;
    const box = $("icicle");
    const width = box.clientWidth || 1000;
    const top = state.zoom !== null && nodes.has(state.zoom) ? [nodes.get(state.zoom)] : roots;
    const topValue = top.reduce((s, n) => s + values.get(n.id), 0) || 1;
    const html = [];
    let cells = 0, depthMax = 0;
    const minValue = (state.min / 100) * total;
    function place(n, x, w, depth) {
      const v = values.get(n.id);
      if (cells >= MAX_CELLS || w < 1 || (depth > 0 && v < minValue) || v <= 0) return;
      cells++;
      depthMax = Math.max(depthMax, depth);
      const cls = ["cell", n.kind, n.inTask ? "in-task" : ""].join(" ");
      const tip = `${nodeLabel(n)}\nsubtree ${fmt(v)} (${pct(100 * v / total)}), exclusive ${fmt(ownTime(n, key))}, ${n.visits} visits` +
        (n.children.length ? "\nclick: zoom in" : "");
      html.push(`<div class="${cls}" data-n="${n.id}"${n.region !== null ? ` data-r="${n.region}"` : ""} data-tip="${esc(tip)}" ` +
        `style="left:${x.toFixed(1)}px;top:${depth * ROW}px;width:${Math.max(w, 1).toFixed(1)}px;background:${nodeColour(n)}">` +
        `${w > 40 ? esc(shortLabel(n)) : ""}</div>`);
      let cx = x;
      for (const c of n.children) {
        const cw = (values.get(c.id) / v) * w;
        place(c, cx, cw, depth + 1);
        cx += cw;
      }
    }
    let x = 0;
    for (const n of top) {
      const w = (values.get(n.id) / topValue) * width;
      place(n, x, w, 0);
      x += w;
    }
    box.innerHTML = html.join("");
    box.style.height = (depthMax + 1) * ROW + 2 + "px";
    box.dataset.cells = cells;
    // crumbs: the path from the top to the zoomed node
    const crumbs = [];
    for (let n = top.length === 1 && state.zoom !== null ? top[0] : null; n; n = nodes.get(n.parent))
      crumbs.unshift(`<a data-zoom="${n.id}">${esc(shortLabel(n))}</a>`);
    $("tree-crumbs").innerHTML = state.zoom !== null ? `<a data-zoom="">all</a> \u203a ` + crumbs.join(" \u203a ") : "";
    if (cells >= MAX_CELLS) $("tree-crumbs").innerHTML += ` <span class="muted">(first ${MAX_CELLS} cells; zoom in or raise the filter)</span>`;
    markAll();
  }
  function ownTime(n, key) {
    let s = 0;
    for (const t of n.threads) if (key === "all" || t[0] === key) s += t[3];
    return s;
  }
  $("icicle").addEventListener("click", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell) return;
    const n = nodes.get(Number(cell.dataset.n));
    state.zoom = n.children.length ? n.id : state.zoom;
    if (n.region !== null) { state.cfg = n.children.length ? n.id : n.parent; }
    renderTree();
    renderCfg();
    select(n.region, n.id);
  });
  $("tree-crumbs").addEventListener("click", (e) => {
    const a = e.target.closest("[data-zoom]");
    if (!a) return;
    state.zoom = a.dataset.zoom === "" ? null : Number(a.dataset.zoom);
    writeHash();
    renderTree();
  });
  function setupTreeControls() {
    const sel = $("tree-thread");
    sel.innerHTML = `<option value="all">all, summed</option>` + threadIds.map((t) => `<option value="${t}">thread ${t}</option>`).join("");
    sel.value = String(state.thread);
    sel.addEventListener("change", () => { state.thread = sel.value === "all" ? "all" : Number(sel.value); writeHash(); renderTree(); });
    const min = $("tree-min");
    min.value = state.min;
    min.addEventListener("change", () => { state.min = Math.max(0, Number(min.value) || 0); writeHash(); renderTree(); });
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
  const CATEGORY_COLOURS = { work: "#74c0fc", barrier: "#ffa8a8", lock: "#e599f7", taskwait: "#ffd43b", task: "#8ce99a", management: "#adb5bd" };
  const CATEGORY_NAMES = { work: "work", barrier: "barrier wait", lock: "lock/critical wait", taskwait: "taskwait", task: "task execution", management: "management (fork/join, leaving locks)" };
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

  // ---- control flow: whole or one layer (a node and its children) -----------
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
  const MAX_CFG_NODES = 1500;
  function renderCfg() {
    const body = $("cfg-body");
    const total = totalOf("all") || 1;
    const values = subtree("all");
    const minValue = (state.cfgmin / 100) * total;
    const shown = [];  // {n, depth}
    let hidden = 0;
    if (state.cfgmode === "layer") {
      // Without a chosen layer: the program's root and what it entered.
      const parent = state.cfg !== null && nodes.has(state.cfg) ? nodes.get(state.cfg) : roots[0] || null;
      if (parent) shown.push({ n: parent, depth: 0 });
      for (const c of parent ? parent.children : roots) {
        if (values.get(c.id) >= minValue) shown.push({ n: c, depth: parent ? 1 : 0 });
        else hidden++;
      }
    } else {
      const stack = roots.slice().reverse().map((n) => ({ n, depth: 0 }));
      while (stack.length) {
        const item = stack.pop();
        if (item.depth > 0 && values.get(item.n.id) < minValue) { hidden++; continue; }
        if (shown.length >= MAX_CFG_NODES) { hidden++; continue; }
        shown.push(item);
        for (let i = item.n.children.length - 1; i >= 0; i--) stack.push({ n: item.n.children[i], depth: item.depth + 1 });
      }
    }
    const busiest = Math.max(...shown.map((s) => s.n.excl), 1e-12);
    const BOX_W = 330, BOX_H = 26, GAP = 14, INDENT = 26;
    const index = new Map(shown.map((s, i) => [s.n.id, i]));
    const y = (i) => 8 + i * (BOX_H + GAP);
    const maxDepth = Math.max(0, ...shown.map((s) => s.depth));
    const edgeX = 8 + maxDepth * INDENT + BOX_W;
    const parts = [], labels = [];
    let widest = edgeX;
    for (const [i, s] of shown.entries()) {
      const byPred = new Map();
      for (const [p, t, c] of s.n.preds) { if (!byPred.has(p)) byPred.set(p, new Map()); byPred.get(p).set(t, c); }
      for (const [p, counts] of byPred) {
        if (!index.has(p)) continue;
        const j = index.get(p), label = esc(edgeLabel(counts));
        if (p === s.n.parent) {  // dotted: parent -> child entered first
          const x = 8 + shown[j].depth * INDENT + 10;
          parts.push(`<path class="cfg-edge parent" d="M${x},${y(j) + BOX_H} V${y(i) + BOX_H / 2} H${8 + s.depth * INDENT}" marker-end="url(#arrow)"/>`);
          labels.push(`<text class="cfg-edge-label" x="${x + 4}" y="${y(i) - 3}">${label}</text>`);
        } else {  // solid: sibling -> the sibling entered right after it
          const bend = 18 + Math.min(Math.abs(i - j), 30) * 8;
          const x0 = edgeX, y0 = y(j) + BOX_H / 2 + (i === j ? -6 : 0), y1 = y(i) + BOX_H / 2 + (i === j ? 6 : 0);
          parts.push(`<path class="cfg-edge" d="M${x0},${y0} C${x0 + bend},${y0} ${x0 + bend},${y1} ${x0 + 2},${y1}" marker-end="url(#arrow)"/>`);
          labels.push(`<text class="cfg-edge-label" x="${x0 + bend * 0.75 + 2}" y="${(y0 + y1) / 2 + 3}">${label}</text>`);
          widest = Math.max(widest, x0 + bend + 8 * label.length);
        }
      }
    }
    const boxes = shown.map((s, i) => {
      const n = s.n, x = 8 + s.depth * INDENT, share = n.excl / busiest;
      const fill = `rgb(255,${Math.round(245 - 110 * share)},${Math.round(245 - 110 * share)})`;
      const v = values.get(n.id);
      const nav = state.cfgmode === "layer"
        ? (i === 0 && n.parent !== null ? `<text class="cfg-nav" data-cfg="${n.parent}" x="${x + BOX_W - 14}" y="${y(i) + 17}">^</text>`
          : n.children.length ? `<text class="cfg-nav" data-cfg="${n.id}" x="${x + BOX_W - 14}" y="${y(i) + 17}">+</text>` : "")
        : "";
      return `<g class="cfg-node"><rect data-r="${n.region === null ? "" : n.region}" data-n="${n.id}" x="${x}" y="${y(i)}" width="${BOX_W}" height="${BOX_H}" rx="4" fill="${fill}" ` +
        `data-tip="${esc(nodeLabel(n))}\n${n.visits} visits, exclusive ${fmt(n.excl)}, subtree ${fmt(v)} (${pct(100 * v / total)})"/>` +
        `<text x="${x + 5}" y="${y(i) + 11}">${esc(shortLabel(n).slice(0, 46))}</text>` +
        `<text x="${x + 5}" y="${y(i) + 22}" fill="#495057">${n.visits}x, excl ${fmt(n.excl)}, ${pct(100 * v / total)}</text>${nav}</g>`;
    });
    const height = y(shown.length) + 10;
    body.innerHTML = `<svg width="${widest + 40}" height="${height}">` +
      `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#495057"/></marker></defs>` +
      parts.join("") + boxes.join("") + labels.join("") + `</svg>` +
      (hidden ? `<p class="muted">${hidden} node(s) hidden by the filter${shown.length >= MAX_CFG_NODES ? " or the size limit" : ""}</p>` : "");
    for (const rect of body.querySelectorAll('rect[data-r=""]')) rect.removeAttribute("data-r");
    $("cfg-scale").innerHTML = `exclusive time: 0 <i></i> ${fmt(busiest)}`;
    markAll();
  }
  $("cfg-body").addEventListener("click", (e) => {
    const nav = e.target.closest("[data-cfg]");
    if (nav) { state.cfg = nav.dataset.cfg === "" ? null : Number(nav.dataset.cfg); writeHash(); renderCfg(); return; }
    const rect = e.target.closest("rect[data-n]");
    if (!rect) return;
    const n = nodes.get(Number(rect.dataset.n));
    if (state.cfgmode === "layer" && n.children.length && n.id !== state.cfg) { state.cfg = n.id; renderCfg(); }
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

  // ---- over time (continuous profiling snapshots) -------------------------------
  function lineChart(title, times, series, unit) {
    const W = 520, H = 170, L = 50, B = 22;
    const max = Math.max(1e-12, ...series.flatMap((s) => s.values));
    const tmax = Math.max(...times, 1e-12);
    const px = (t) => L + (t / tmax) * (W - L - 10), py = (v) => 8 + (1 - v / max) * (H - B - 8);
    const palette = ["#1c7ed6", "#e03131", "#2f9e44", "#f08c00", "#9c36b5", "#0c8599", "#5c940d", "#d6336c", "#495057"];
    const lines = series.map((s, k) =>
      `<polyline fill="none" stroke="${palette[k % palette.length]}" stroke-width="${s.region === state.region ? 3 : 1.5}" ${s.region !== undefined ? `data-r="${s.region}"` : ""} ` +
      `data-tip="${esc(s.name)}" points="${s.values.map((v, i) => px(times[i]).toFixed(1) + "," + py(v).toFixed(1)).join(" ")}"/>`).join("");
    const legend = series.map((s, k) => `<span ${s.region !== undefined ? `data-r="${s.region}" style="cursor:pointer"` : ""}><span class="swatch" style="background:${palette[k % palette.length]}"></span>${esc(s.name)}</span>`).join(" ");
    return `<div style="display:inline-block;vertical-align:top;margin-right:16px"><b>${esc(title)}</b><br>` +
      `<svg width="${W}" height="${H}"><line x1="${L}" y1="${H - B}" x2="${W}" y2="${H - B}" stroke="#adb5bd"/><line x1="${L}" y1="4" x2="${L}" y2="${H - B}" stroke="#adb5bd"/>` +
      `<text class="bar-label" x="2" y="14">${fmt(max)}</text><text class="bar-label" x="${W - 60}" y="${H - 4}">${tmax.toFixed(2)} s</text>` +
      `<text class="bar-label" x="${L}" y="${H - 4}">${unit}</text>${lines}</svg><div class="legend" style="max-width:${W}px">${legend}</div></div>`;
  }
  function renderOvertime() {
    const snaps = D.snapshots || [];
    const panel = $("overtime");
    if (!snaps.length) { panel.classList.add("empty"); return; }
    const times = snaps.map((s) => s.time_s);
    const diff = (get) => snaps.map((s, i) => get(s) - (i ? get(snaps[i - 1]) : 0));
    const overheadSeries = OVERHEADS.map((k) => ({ name: k.replace(/_s$/, "").replace(/_/g, " "), values: diff((s) => (s.overheads || {})[k] || 0) }));
    const final = new Map();
    for (const s of snaps) for (const e of s.regions || []) final.set(e.region, Math.max(final.get(e.region) || 0, e.exclusive_s));
    const busiest = [...final.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([r]) => r);
    if (state.region !== null && final.has(state.region) && !busiest.includes(state.region)) busiest.push(state.region);
    const regionSeries = busiest.map((r) => ({
      name: pad(r) + " " + (regions.get(r) ? regions.get(r).kind : ""), region: r,
      values: diff((s) => ((s.regions || []).find((e) => e.region === r) || { exclusive_s: 0 }).exclusive_s),
    }));
    $("overtime-body").innerHTML = lineChart("Overheads per interval (all threads)", times, overheadSeries, "time since start") +
      lineChart("Exclusive time per region per interval (all threads)", times, regionSeries, "time since start");
  }

  // ---- start ------------------------------------------------------------------
  readHash();
  $("app").textContent = D.application;
  $("summary").textContent = `${D.threads} threads, wall time ${fmt(D.wall_time_s)}, ${regions.size} regions, ${nodes.size} call-tree nodes` +
    ((D.invariant_violations || []).length ? ` \u2014 warning: ${D.invariant_violations.length} figure(s) do not add up` : "");
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
  markAll();
  revealSelection();
  addEventListener("hashchange", () => { readHash(); renderTree(); renderCfg(); renderSource(true); renderDetails(); renderOvertime(); markAll(); });
  let resizeTimer = null;
  addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(renderTree, 150); });
  document.body.dataset.renderMs = (performance.now() - started).toFixed(0);
  document.body.dataset.ready = "1";
})();

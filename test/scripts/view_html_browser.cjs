// SPDX-License-Identifier: BSD-3-Clause
// Opens an `ompp-view html` report in headless Chromium through puppeteer-core
// and prints what a test needs to judge it, as one JSON object:
//   load_ms, render_ms    time to the page's "ready" (first CFG layout in) and
//                         its own script's measure of the same
//   errors                console errors and uncaught exceptions
//   views                 per panel, how much it drew
//   linking               after clicking --click-node in the icicle: what is
//                         marked selected in the call tree, source and CFG
//   layers                CFG layer navigation: "+" into a child, "^" back up
//   click_ms              from the click to every view updated
//   wheel                 (--wheel 1) the icicle after a plain and a Ctrl+wheel zoom
//   clicked               (--click-selector SEL) after clicking the first element SEL
//                         matches: the hash and what is marked selected per panel
// Usage: node view_html_browser.cjs --node-modules DIR --chromium EXE --report FILE
//          [--click-node ID|widest] [--click-selector SEL] [--hash FRAGMENT]
//          [--screenshots DIR --prefix NAME [--panels page,calltree,...]]
"use strict";
const fs = require("fs");
const path = require("path");

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const puppeteer = require(path.join(args["node-modules"], "puppeteer-core"));

const PANELS = ["calltree", "threads", "ranked", "cfg", "source", "overtime", "compare", "execgraph"];

async function waitCfg(page, previousRun) {
  await page.waitForFunction((run) => Number(document.getElementById("cfg-body").dataset.run || 0) > run,
    { timeout: 20000 }, previousRun);
}
const cfgRun = (page) => page.evaluate(() => Number(document.getElementById("cfg-body").dataset.run || 0));
const cfgShown = (page) => page.evaluate(() =>
  [...document.querySelectorAll("#cfg-body g.node")].map((g) => Number(g.dataset.n)));

async function main() {
  const browser = await puppeteer.launch({
    executablePath: args.chromium, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    defaultViewport: { width: 1400, height: 1000 },
  });
  const result = { errors: [] };
  try {
    const page = await browser.newPage();
    page.on("console", (m) => { if (m.type() === "error") result.errors.push(m.text()); });
    page.on("pageerror", (e) => result.errors.push(String(e)));
    const url = "file://" + path.resolve(args.report) + (args.hash ? "#" + args.hash : "");
    const start = Date.now();
    await page.goto(url, { waitUntil: "load", timeout: 30000 });
    await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    result.load_ms = Date.now() - start;
    result.render_ms = Number(await page.$eval("body", (b) => b.dataset.renderMs));
    result.views = await page.evaluate((panels) => {
      const out = {};
      for (const id of panels) {
        const el = document.getElementById(id);
        out[id] = {
          shown: !el.classList.contains("empty") && el.getBoundingClientRect().height > 0,
          cells: el.querySelectorAll(".cell").length,
          cfg_nodes: el.querySelectorAll("g.node").length,
          rows: el.querySelectorAll("tr[data-r], .region-row").length,
          bars: el.querySelectorAll("svg rect").length,
          lines: el.querySelectorAll(".ln").length,
          charts: el.querySelectorAll(".uplot canvas").length,
          heat_cells: el.querySelectorAll(".heatmap rect").length,
          heatmaps: el.querySelectorAll(".heatmap").length,
          worse: [...el.querySelectorAll("tr.worse[data-r]")].map((tr) => Number(tr.dataset.r)),
          better: [...el.querySelectorAll("tr.better[data-r]")].map((tr) => Number(tr.dataset.r)),
          steps: el.querySelectorAll("tr.step").length,
          error: (el.querySelector(".error") || {}).textContent || "",
        };
      }
      return out;
    }, PANELS);
    result.marked = await page.evaluate((panels) =>
      Object.fromEntries(panels.map((id) => [id, document.getElementById(id).querySelectorAll(".sel").length])), PANELS);
    result.heatmap_titles = await page.evaluate(() => [...document.querySelectorAll("#overtime .heatmap b")].map((b) => b.textContent));
    if (args["click-node"] !== undefined) {
      const run = await cfgRun(page);
      // "widest": the widest region cell below the top row (for the benchmark).
      const selector = args["click-node"] === "widest"
        ? await page.evaluate(() => {
          const cells = [...document.querySelectorAll("#icicle .cell[data-r]")].filter((c) => c.offsetTop > 0);
          cells.sort((a, b) => b.offsetWidth - a.offsetWidth);
          return cells.length ? `#icicle .cell[data-n="${cells[0].dataset.n}"]` : "#no-cell";
        })
        : `#icicle .cell[data-n="${args["click-node"]}"]`;
      const cell = await page.$(selector);
      if (!cell) throw new Error(`node ${args["click-node"]} not drawn in the icicle`);
      const clickStart = Date.now();
      await cell.click();
      await waitCfg(page, run);
      // Responsiveness: from the click to every view updated (the CFG last).
      result.click_ms = Date.now() - clickStart;
      result.linking = await page.evaluate(() => ({
        hash: location.hash,
        calltree: document.querySelectorAll("#icicle .cell.sel").length,
        source: document.querySelectorAll("#source-body .ln.sel").length,
        cfg: [...document.querySelectorAll("#cfg-body g.node.sel")].map((g) => Number(g.dataset.n)),
        threads: document.querySelectorAll("#threads-body .sel").length,
      }));
      // Layer navigation: the clicked node's layer is open; "+" into a child
      // that has one, "^" back.
      const layers = { layer: await cfgShown(page) };
      const child = await page.$("#cfg-body g.node[data-cfg]");
      if (child) {
        layers.entered = Number(await child.evaluate((g) => g.dataset.cfg));
        let before = await cfgRun(page);
        await child.click();
        await waitCfg(page, before);
        layers.child_layer = await cfgShown(page);
        before = await cfgRun(page);
        await page.click("#cfg-nav button[data-cfg]");
        await waitCfg(page, before);
        layers.back = await cfgShown(page);
      }
      result.layers = layers;
    }
    if (args["click-selector"]) {
      await page.click(args["click-selector"]);
      await new Promise((r) => setTimeout(r, 300));
      result.clicked = await page.evaluate((panels) => ({
        hash: location.hash,
        marked: Object.fromEntries(panels.map((id) => [id, document.getElementById(id).querySelectorAll(".sel").length])),
      }), PANELS);
    }
    if (args.wheel) {
      // Ctrl+wheel over the icicle zooms it (d3-zoom); a plain wheel scrolls the page.
      const box = await (await page.$("#icicle")).boundingBox();
      await page.mouse.move(box.x + box.width / 3, box.y + 5);
      await page.mouse.wheel({ deltaY: -300 });
      await new Promise((r) => setTimeout(r, 300));
      const plain = await page.$eval("#tree-crumbs", (c) => c.textContent);
      await page.keyboard.down("Control");
      await page.mouse.wheel({ deltaY: -300 });
      await page.keyboard.up("Control");
      await new Promise((r) => setTimeout(r, 300));
      result.wheel = {
        plain_zoomed: /reset wheel zoom/.test(plain),
        crumbs: await page.$eval("#tree-crumbs", (c) => c.textContent),
        cells: await page.$eval("#icicle", (b) => Number(b.dataset.cells)),
      };
    }
    if (args.screenshots) {
      fs.mkdirSync(args.screenshots, { recursive: true });
      await page.addStyleTag({ content: "header { position: static !important; }" });
      for (const id of (args.panels || PANELS.join(",")).split(",")) {
        const file = path.join(args.screenshots, `${args.prefix || "report"}-${id}.png`);
        if (id === "page") {
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: file });
          continue;
        }
        const el = await page.$(`#${id}:not(.empty)`);
        if (el) await el.screenshot({ path: file });
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
}

main().catch((err) => { console.error(String(err && err.stack || err)); process.exit(1); });

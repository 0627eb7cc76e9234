// The board as SVG, drawn from a page's JSON view (no library): a hex map, a council of advisors with
// province sheets, or the table as text.
"use strict";

const TERRAIN = { "Desert": "#e8cf8a", "Forest": "#5f9a57", "Frozen Waste": "#e4edf2", "Jungle": "#2f7a4f",
  "Mountain": "#a39a8f", "Plains": "#c5d97b", "Swamp": "#7d8b6a", "Sea": "#6fa7cf", "": "#8a8a8a" };
const SIDE = ["#2b5fad", "#c0392b", "#8e44ad", "#d68910", "#16a085", "#6d4c41", "#333"];
const FORT = { "Tower": "T", "Keep": "K", "Castle": "C", "Citadel": "Ct" };
const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// A side's colour by its seat at the table: a seat's page counts sides from itself (`turn` is its seat), so the
// same player has the same colour in every view.
function sideColour(side, players, turn) {
  return side >= players ? SIDE[6] : SIDE[(side + (turn || 0)) % players % 6];
}

// view: {hexes: [{h, q, r, terrain, owner, fort, stacks, income, marks}], players}; targets: hex -> action
function drawHexes(view, targets, onHex) {
  const size = 34, w = Math.sqrt(3) * size;
  const pos = view.hexes.map(x => [w * (x.q + x.r / 2), 1.5 * size * x.r]);
  const xs = pos.map(p => p[0]), ys = pos.map(p => p[1]);
  const pad = size + 4, minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const svg = svgEl("svg", { "class": "board", viewBox: `${minX} ${minY} ${Math.max(...xs) - minX + pad} ` +
    `${Math.max(...ys) - minY + pad}`, role: "img", "aria-label": "the board" });
  const n = view.players.length, turn = view.rotation || 0;
  view.hexes.forEach((x, i) => {
    const [cx, cy] = pos[i];
    const corners = [...Array(6).keys()].map(k => {
      const a = Math.PI / 180 * (60 * k - 30);
      return `${(cx + (size - 1) * Math.cos(a)).toFixed(1)},${(cy + (size - 1) * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
    const g = svgEl("g", { "class": "hexgroup", "data-hex": x.h });
    const poly = svgEl("polygon", { points: corners, fill: TERRAIN[x.terrain] || "#999",
      "class": "hex" + (x.h in targets ? " target" : "") + (x.h === view.battle_hex ? " battle" : "") });
    g.appendChild(poly);
    if (x.owner >= 0) {
      g.appendChild(svgEl("circle", { cx: cx - size * 0.42, cy: cy - size * 0.42, r: 5,
        fill: sideColour(x.owner, n, turn), stroke: "#fff", "class": "owner" }));
    }
    g.appendChild(svgEl("text", { x: cx, y: cy - size * 0.5, "text-anchor": "middle", "class": "num" }, x.h));
    g.appendChild(svgEl("text", { x: cx, y: cy - size * 0.02, "text-anchor": "middle", "class": "terrain" },
      x.terrain === "Frozen Waste" ? "Waste" : x.terrain === "Sea" ? "" : x.terrain || "?"));
    if (x.fort) g.appendChild(svgEl("text", { x: cx + size * 0.42, y: cy - size * 0.34, "text-anchor": "middle",
      "class": "fort" }, FORT[x.fort] || x.fort));
    if (x.income.length) g.appendChild(svgEl("text", { x: cx + size * 0.62, y: cy + size * 0.12, "text-anchor": "middle",
      "class": "fort" }, "$"));
    x.stacks.forEach((s, k) => {
      const sx = cx - 14 + 14 * (k % 3), sy = cy + size * 0.4 + 13 * Math.floor(k / 3) * -1;
      g.appendChild(svgEl("rect", { x: sx - 6, y: sy - 6, width: 12, height: 12, rx: 2,
        fill: sideColour(s.side, n, turn), stroke: s.down ? "#000" : "#fff", "stroke-dasharray": s.down ? "2 1" : "" ,
        "class": "stack" }));
      g.appendChild(svgEl("text", { x: sx, y: sy + 3.5, "text-anchor": "middle", "class": "count" },
        s.known.length + s.down));
    });
    const tip = [`h${x.h} ${x.terrain || "face down"}` + (x.fort ? `, ${x.fort}` : "")].concat(
      x.income, x.stacks.map(s => `${s.name}: ` + s.known.concat(s.down ? [`${s.down} face down`] : []).join(", ")),
      x.marks ? [x.marks] : []);
    g.appendChild(svgEl("title", {}, tip.join("\n")));
    if (x.h in targets) g.addEventListener("click", () => onHex(x.h));
    svg.appendChild(g);
  });
  return svg;
}

// A die: a square in its owner's colour with its pips (none for the neutral dice a seat sees without values).
function drawDie(parent, x, y, colour, pips, envoy) {
  parent.appendChild(svgEl("rect", { x, y, width: 15, height: 15, rx: 3, fill: colour, stroke: envoy ? "#000" : "#fff",
    "stroke-width": envoy ? 1.5 : 1, "stroke-dasharray": envoy ? "3 1.5" : "", "class": "die" }));
  parent.appendChild(svgEl("text", { x: x + 7.5, y: y + 11, "text-anchor": "middle", "class": "pips" }, pips));
}

// The King's council: the 18 advisors in three rows of six, each group of dice on its advisor in its owner's colour
// (an Envoy group dashed); targets: "advisor N" / "building I" -> actions, clickable.
function drawAdvisors(svg, view, targets, onSpot, colour) {
  const cw = 118, ch = 62;
  view.advisors.forEach((a, i) => {
    const x = 4 + (i % 6) * (cw + 2), y = 4 + Math.floor(i / 6) * (ch + 2), spot = `advisor ${a.n}`;
    const g = svgEl("g", { "class": "advisor", "data-spot": spot });
    g.appendChild(svgEl("rect", { x, y, width: cw, height: ch, rx: 4, "class": "cell" + (spot in targets ? " target" : "") }));
    g.appendChild(svgEl("text", { x: x + 5, y: y + 12, "class": "adv-num" }, a.n));
    g.appendChild(svgEl("text", { x: x + 22, y: y + 12, "class": "adv-name" }, a.name));
    let dx = x + 5;
    for (const grp of a.groups) {
      for (const p of grp.pips.length ? grp.pips : ["?"]) { drawDie(g, dx, y + 20, colour(grp.side), p, grp.envoy); dx += 17; }
      dx += 4;
    }
    g.appendChild(svgEl("text", { x: x + 5, y: y + ch - 6, "class": "adv-help" }, a.help.length > 26 ? a.help.slice(0, 25) + "…" : a.help));
    g.appendChild(svgEl("title", {}, [`${a.n} ${a.name}: ${a.help}`].concat(a.groups.map(
      grp => `${grp.name}${grp.envoy ? " (Envoy)" : ""}: ${grp.pips.join("+") || "dice"}`)).join("\n")));
    if (spot in targets) g.addEventListener("click", () => onSpot(spot));
    svg.appendChild(g);
  });
  return 4 + 3 * (ch + 2);
}

// The province sheets, two abreast: each player's 20 buildings (built ones in the player's colour) and marks.
function drawSheets(svg, view, targets, onSpot, colour, top) {
  const bw = 87, bh = 19, sw = 4 * bw + 8, sh = 5 * bh + 58;
  view.sheets.forEach((sheet, k) => {
    const x0 = 4 + (k % 2) * (sw + 8), y0 = top + 8 + Math.floor(k / 2) * sh;
    const p = view.players[k] || {};
    svg.appendChild(svgEl("rect", { x: x0, y: y0 + 3, width: 10, height: 10, fill: colour(sheet.side) }));
    svg.appendChild(svgEl("text", { x: x0 + 14, y: y0 + 12, "class": "sheet-name" }, sheet.name));
    svg.appendChild(svgEl("text", { x: x0, y: y0 + 25, "class": "sheet-facts" }, `${p.VP} VP · ${p.gold} gold · ` +
      `${p.wood} wood · ${p.stone} stone · ${p.soldiers} soldiers · ${p["+2"]} "+2" tokens`));
    sheet.rows.forEach((row, r) => row.forEach((b, c) => {
      const x = x0 + c * bw, y = y0 + 30 + r * bh, spot = `building ${r * 4 + c}`;
      const g = svgEl("g", { "class": "building", "data-spot": spot });
      g.appendChild(svgEl("rect", { x, y, width: bw - 2, height: bh - 2, rx: 2, style: `fill:${b.built ? colour(sheet.side) : "#eeeae0"}`,
        "class": "cell" + (k === 0 && spot in targets ? " target" : "") }));  // style: the stylesheet's fill would win
      g.appendChild(svgEl("text", { x: x + (bw - 2) / 2, y: y + 12, "text-anchor": "middle",
        "class": b.built ? "built" : "unbuilt" }, b.name));
      if (k === 0 && spot in targets) g.addEventListener("click", () => onSpot(spot));
      svg.appendChild(g);
    }));
    svg.appendChild(svgEl("text", { x: x0, y: y0 + 30 + 5 * bh + 11, "class": "marks" }, sheet.marks.join(" · ")));
  });
  return top + 8 + Math.ceil(view.sheets.length / 2) * sh;
}

function drawCouncil(view, targets, onSpot) {
  const svg = svgEl("svg", { "class": "board council", role: "img", "aria-label": "the board" });
  const colour = side => sideColour(side, view.players.length, view.rotation);
  const top = drawAdvisors(svg, view, targets, onSpot, colour);
  const height = drawSheets(svg, view, targets, onSpot, colour, top);
  svg.setAttribute("viewBox", `0 0 ${6 * 120 + 6} ${height}`);
  const box = document.createElement("div");
  const facts = document.createElement("pre");
  facts.className = "enemy";
  facts.textContent = `turn order: ${view.order.join(", ")}\n${view.enemy}`;
  box.append(svg, facts);
  return box;
}

function drawBoard(view, targets, onHex) {
  if (view.kind === "hexes") return drawHexes(view, targets || {}, onHex || (() => {}));
  if (view.kind === "council") return drawCouncil(view, targets || {}, onHex || (() => {}));
  const pre = document.createElement("pre");
  pre.className = "board";
  pre.textContent = view.text;
  return pre;
}

window.drawBoard = drawBoard;
window.sideColour = sideColour;

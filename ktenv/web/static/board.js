// The board as SVG, drawn from a page's JSON view (no library): a hex map, or the table as text.
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
      "class": "hex" + (x.h in targets ? " target" : "") });
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

function drawBoard(view, targets, onHex) {
  if (view.kind === "hexes") return drawHexes(view, targets || {}, onHex || (() => {}));
  const pre = document.createElement("pre");
  pre.className = "board";
  pre.textContent = view.text;
  return pre;
}

window.drawBoard = drawBoard;
window.sideColour = sideColour;

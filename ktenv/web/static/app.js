// The pages of `ktenv serve`: play, watch (records and saved games), tournaments, inspect. Plain JavaScript.
"use strict";

const main = document.getElementById("main");
let games = [];          // the registered games (/api/games)
let current = null;      // the page being shown: {kind, ...}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, url, body) {
  const response = await fetch(url, { method, headers: body ? { "Content-Type": "application/json" } : {},
                                      body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function query() {
  const at = location.hash.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : location.hash.slice(at + 1));
}

async function route() {
  showError("");
  const hash = location.hash.replace(/\?.*$/, "");
  try {
    if (!games.length) games = await api("GET", "/api/games");
    if (hash.startsWith("#/table/")) await tablePage(hash.slice(8));
    else if (hash === "#/watch") await watchPage();
    else if (hash === "#/replay") await replayPage(query());
    else if (hash === "#/tournament") await tournamentPage(query());
    else await newGamePage();
  } catch (err) { showError(err.message); }
}

// ----- shared parts

function playersTable(view) {
  const players = view.players;
  const keys = Object.keys(players[0] || {}).filter(k => !["name", "first", "alive", "screen_things"].includes(k));
  return h("table", { "class": "players" },
    h("tr", {}, h("th", {}, "player"), keys.map(k => h("th", {}, k))),
    players.map((p, i) => h("tr", {},
      h("td", {}, h("span", { style: `color:${sideColour(i, players.length, view.rotation)}` }, "■ "), p.name,
        p.first ? " (first)" : "", p.alive === false ? " (out)" : ""),
      keys.map(k => h("td", {}, p[k])))));
}

function screenPart(view) {
  if (view.screen && view.screen.length) return h("p", { "class": "screen" }, h("b", {}, "Your screen: "), view.screen.join(", "));
  const hidden = (view.players || []).filter(p => p.screen_things && p.screen_things.length);
  return hidden.length ? h("div", { "class": "screen" }, hidden.map(p => h("p", {}, h("b", {}, p.name + "'s screen: "),
    p.screen_things.join(", ")))) : null;
}

function inspectPanel(request) {
  const out = h("div", {});
  const input = h("input", { list: "agent-names", value: "expert", size: 24, "aria-label": "agent to ask" });
  const names = (games.find(g => g.name === request.game) || games[0]).agents.filter(a => a !== "human");
  let ticket = 0;  // only the latest question's answer is shown (a model loading can answer after a later one)
  const ask = async () => {
    const mine = ++ticket;
    out.replaceChildren(h("p", { "class": "muted", id: "asking" }, `asking ${input.value}…`));
    try {
      const r = await api("POST", "/api/inspect", { ...request.body, agent: input.value });
      if (mine !== ticket) return;
      const parts = [h("table", {}, h("tr", {}, h("th", {}, "action"), h("th", {}, r.kind)),
        r.actions.map(a => h("tr", {}, h("td", {}, a.label), h("td", {}, a.value === null ? "plays"
          : r.kind === "probabilities" ? `${(100 * a.value).toFixed(1)}%` : a.value))))];
      if (r.value !== undefined && r.value !== null) parts.push(h("p", {}, `value estimate: ${r.value}`));
      if (r.chances) parts.push(h("p", { id: "chances" }, "chance to win (expert games from worlds this seat cannot " +
        "tell apart): " + r.chances.map((c, k) => `seat ${k + 1} ${(100 * c).toFixed(0)}%`).join(", ")));
      out.replaceChildren(...parts);
    } catch (err) { if (mine === ticket) out.replaceChildren(h("p", { "class": "muted", id: "ask-error" }, err.message)); }
  };
  return h("div", { "class": "panel" }, h("h2", {}, "Ask an agent"),
    h("datalist", { id: "agent-names" }, names.concat(["ppo:PATH", "rllib:PATH"]).map(a => h("option", { value: a }))),
    h("div", { "class": "controls" }, input, h("button", { onclick: ask, id: "ask" }, "Ask")), out);
}

// ----- play

async function newGamePage() {
  current = { kind: "new" };
  const game = h("select", { name: "game" }, games.map(g => h("option", { value: g.name }, g.title)));
  const players = h("select", { name: "players" });
  const seat = h("select", { name: "seat" });
  const agents = h("input", { name: "agents", value: "random", size: 40 });
  const rounds = h("input", { name: "max_rounds", type: "number", min: 0, value: 3 });
  const seed = h("input", { name: "seed", type: "number", placeholder: "random" });
  const fill = () => {
    const g = games.find(x => x.name === game.value);
    players.replaceChildren(...g.players.map(n => h("option", { value: n }, n)));
    rounds.disabled = !g.round_limit;
    fillSeats();
  };
  const fillSeats = () => seat.replaceChildren(...[...Array(+players.value || 2).keys()].map(
    k => h("option", { value: k }, `seat ${k + 1}`)));
  game.addEventListener("change", fill);
  players.addEventListener("change", fillSeats);
  const start = async ev => {
    ev.preventDefault();
    try {
      const body = { game: game.value, players: +players.value, seat: +seat.value,
        agents: agents.value.split(",").map(s => s.trim()).filter(Boolean),
        max_rounds: rounds.disabled ? null : +rounds.value };
      if (seed.value !== "") body.seed = +seed.value;
      const page = await api("POST", "/api/tables", body);
      location.hash = `#/table/${page.id}`;
    } catch (err) { showError(err.message); }
  };
  const form = h("form", { "class": "newgame panel", onsubmit: start }, h("h2", {}, "New game"),
    h("label", {}, "Game ", game), h("label", {}, "Players ", players), h("label", {}, "Your seat ", seat),
    h("label", {}, "Agents in the other seats (one for all, or one per seat, comma-separated) ", agents,
      h("div", { "class": "muted" }, "random, greedy, expert, ismcts, ppo:PATH, rllib:PATH, FILE.py:CLASS; human: " +
        "another person")),
    h("label", {}, "Round limit (0: none) ", rounds), h("label", {}, "Seed ", seed),
    h("button", { type: "submit", id: "start" }, "Start"));
  const saved = (await api("GET", "/api/runs")).filter(f => f.kind === "web_game");
  main.replaceChildren(h("div", { "class": "layout" }, form, h("div", { "class": "panel" }, h("h2", {}, "Your games"),
    saved.length ? h("ul", { "class": "files" }, saved.map(f => {
      const id = f.path.replace(/^web\//, "").replace(/\.json$/, "");
      return h("li", {}, h("a", { href: `#/table/${id}` }, id));
    })) : h("p", { "class": "muted" }, "none yet"))));
  fill();
}

const speeds = { "instant": 0, "fast": 80, "slow": 400 };
let logSpeed = "fast";

async function tablePage(id) {
  const seat = query().get("seat");  // one of several person seats (a game with more than one person)
  const page = await api("GET", `/api/tables/${id}` + (seat ? `?seat=${encodeURIComponent(seat)}` : ""));
  current = { kind: "table", id, shown: page.log.length };  // the moves before the page opened: shown at once
  renderTable(page);
}

// While another person's seat decides (another tab, or the same screen passed around), look again now and then.
function watchForPeople(page) {
  if (page.waiting_for === undefined || page.over) return;
  setTimeout(async () => {
    if (current.kind !== "table" || current.id !== page.id || +main.dataset.decision !== page.decision) return;
    try {
      const now = await api("GET", `/api/tables/${page.id}?seat=${page.seat}`);
      if (now.decision !== page.decision) renderTable(now); else watchForPeople(page);
    } catch (err) { showError(err.message); }
  }, 1500);
}

function renderTable(page) {
  const view = page.view;
  const targets = {};  // a spot of the board -> the actions that name it (or a counter standing there)
  if (page.your_turn) for (const a of view.actions) {  // a hex, an advisor or a building the action names
    const spot = a.hex !== undefined ? a.hex : a.spot;
    if (spot !== undefined) (targets[spot] = targets[spot] || []).push(a);
  }
  const play = async action => {
    try { renderTable(await api("POST", `/api/tables/${page.id}/act`, { decision: page.decision, action, seat: page.seat })); }
    catch (err) { showError(err.message); }
  };
  const status = page.over
    ? h("p", { id: "result" }, h("b", {}, "Game over: "), (page.result.winners.join(", ") || "nobody") + " won (" +
        page.result.reason + "). ", h("a", { href: `#/replay?path=web/${page.id}.record.json&seat=table` }, "Watch the record"))
    : page.waiting_for !== undefined
      ? h("p", { "class": "muted", id: "waiting" }, `Seat ${page.waiting_for + 1} (a person) decides: `,
          h("a", { href: `#/table/${page.id}?seat=${page.waiting_for}` }, `play seat ${page.waiting_for + 1}`))
      : h("p", { "class": "muted" }, page.your_turn ? "Your decision:" : "Waiting for the other seats…");
  const showAll = h("button", { id: "show-all", hidden: true, onclick: () => {
    for (const b of document.querySelectorAll("#actions button[data-action]")) b.hidden = false;
    showAll.hidden = true;
  } }, "show every choice");
  const actions = h("div", { "class": "actions", id: "actions" }, page.your_turn ? view.actions.map(a =>
    h("button", { onclick: () => play(a.action), "data-action": a.action }, a.label)) : [], showAll);
  const log = h("pre", { "class": "log", id: "log" });
  const speed = h("select", { onchange: ev => { logSpeed = ev.target.value; } },
    Object.keys(speeds).map(s => h("option", { value: s, selected: s === logSpeed }, s)));
  main.replaceChildren(h("div", { "class": "layout" },
    h("div", {}, h("div", { "class": "panel" }, h("div", { "class": "title", id: "title" }, view.title),
      view.battle ? h("p", { "class": "battle", id: "battle" }, view.battle) : null,
      drawBoard(view, targets, hx => chooseAt(targets[hx], play))), h("div", { "class": "panel" }, playersTable(view), screenPart(view))),
    h("div", {}, h("div", { "class": "panel" }, status, actions,
      (page.notes || []).map(n => h("p", { "class": "note" }, n))),
      h("div", { "class": "panel" }, h("h2", {}, "Moves ", h("span", { "class": "muted" }, "speed "), speed), log),
      page.your_turn ? inspectPanel({ game: page.game, body: { table: page.id, seat: page.seat } }) : null)));
  main.dataset.decision = page.decision;  // what the page shows, for scripts and tests
  main.dataset.over = page.over;
  revealLog(log, page.log);
  watchForPeople(page);
}

// A click on the board: the one action there is played; several (a hex's counters) are shown alone to pick from.
function chooseAt(actions, play) {
  if (actions.length === 1) { play(actions[0].action); return; }
  const wanted = new Set(actions.map(a => String(a.action)));
  for (const b of document.querySelectorAll("#actions button[data-action]")) b.hidden = !wanted.has(b.dataset.action);
  const all = document.getElementById("show-all");
  if (all) all.hidden = false;
}

function revealLog(el, lines) {
  const already = Math.min(current.shown || 0, lines.length);
  el.textContent = lines.slice(0, already).join("\n");
  let k = already;
  const step = () => {
    if (k >= lines.length || !el.isConnected) return;
    el.textContent += (el.textContent ? "\n" : "") + lines[k++];
    el.scrollTop = el.scrollHeight;
    current.shown = k;
    if (speeds[logSpeed]) setTimeout(step, speeds[logSpeed]); else step();
  };
  el.scrollTop = el.scrollHeight;
  step();
}

// ----- watch

async function watchPage() {
  current = { kind: "watch" };
  const files = await api("GET", "/api/runs");
  const link = f => f.kind === "tournament" ? `#/tournament?path=${encodeURIComponent(f.path)}`
    : `#/replay?path=${encodeURIComponent(f.path)}&seat=0`;
  const words = { record: "record", web_game: "game played here", tournament: "tournament", save: "saved game state (one position)" };
  main.replaceChildren(h("div", { "class": "panel" }, h("h2", {}, "Records, games and tournaments under the runs folder"),
    files.length ? h("ul", { "class": "files", id: "files" }, files.map(f => h("li", {},
      link(f) ? h("a", { href: link(f) }, f.path) : f.path, h("span", { "class": "muted" }, ` ${words[f.kind]}`))))
      : h("p", { "class": "muted" }, "nothing yet: ktenv tournament --records DIR, or play a game here")));
}

async function replayPage(q) {
  const path = q.get("path");
  current = { kind: "replay", path, at: +(q.get("at") || 0), seat: q.get("seat") || "0", request: 0 };
  await loadPosition();
  document.onkeydown = ev => {
    if (current.kind !== "replay" || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
    const step = { ArrowRight: 1, ArrowLeft: -1, PageDown: 20, PageUp: -20 }[ev.key];
    if (step === undefined) return;
    ev.preventDefault();
    current.at = Math.max(0, Math.min(current.moves, current.at + step));
    loadPosition();
  };
}

async function loadPosition() {
  const ticket = ++current.request;  // a slower, older answer never overwrites a newer one
  main.dataset.busy = "1";
  const url = `/api/replay?path=${encodeURIComponent(current.path)}&at=${current.at}&seat=${current.seat}`;
  let r;
  try { r = await api("GET", url); } catch (err) {
    if (ticket === current.request) { showError(err.message); main.dataset.busy = ""; }
    return;
  }
  if (ticket !== current.request || current.kind !== "replay") return;
  showError("");
  main.dataset.busy = "";
  current.moves = r.moves;
  history.replaceState(null, "", `#/replay?path=${encodeURIComponent(current.path)}&at=${r.at}&seat=${r.seat}`);
  const slider = h("input", { type: "range", min: 0, max: r.moves, value: r.at, id: "slider", "aria-label": "move" });
  slider.addEventListener("input", () => { current.at = +slider.value; loadPosition(); });
  const seats = h("select", { id: "seat", onchange: ev => { current.seat = ev.target.value; loadPosition(); } },
    r.finished ? h("option", { value: "table", selected: r.seat === "table" }, "whole table (every hidden fact)") : null,
    r.agents.map((a, k) => h("option", { value: k, selected: String(k) === r.seat }, `seat ${k + 1}: ${a}`)));
  const step = d => () => { current.at = Math.max(0, Math.min(r.moves, current.at + d)); loadPosition(); };
  const log = h("pre", { "class": "log", id: "log" }, r.log.join("\n"));
  const seatNumber = r.seat === "table" ? null : +r.seat;
  main.replaceChildren(h("div", { "class": "panel controls" }, h("b", {}, current.path),
    h("button", { onclick: step(-1) }, "◀"), slider, h("button", { onclick: step(1) }, "▶"),
    h("span", { id: "at" }, `move ${r.at} of ${r.moves}`), seats),
    h("div", { "class": "layout" },
      h("div", {}, h("div", { "class": "panel" }, h("div", { "class": "title", id: "title" }, r.view.title),
        r.view.battle ? h("p", { "class": "battle", id: "battle" }, r.view.battle) : null,
        drawBoard(r.view, {}, null)), h("div", { "class": "panel" }, playersTable(r.view), screenPart(r.view))),
      h("div", {}, h("div", { "class": "panel" }, h("h2", {}, "Next move"), h("p", { id: "next" }, r.next || "—"),
        r.view.actions.length ? h("details", {}, h("summary", {}, `${r.view.actions.length} legal actions`),
          h("ul", {}, r.view.actions.map(a => h("li", {}, a.label)))) : null),
        h("div", { "class": "panel" }, h("h2", {}, "Moves"), log),
        r.moves ? branchPanel(r) : null,
        seatNumber !== null && r.view.actions.length ? inspectPanel({ game: r.game,
          body: { path: current.path, at: r.at, seat: seatNumber } }) : null)));
  log.scrollTop = log.scrollHeight;
}

function branchPanel(r) {
  const seat = h("select", { id: "branch-seat" }, r.agents.map((a, k) => h("option", { value: k }, `seat ${k + 1}`)));
  const agents = h("input", { value: "expert", size: 24, "aria-label": "agents in the other seats" });
  const go = async () => {
    try {
      const page = await api("POST", "/api/tables", { from: { path: current.path, at: r.at }, seat: +seat.value,
        agents: agents.value.split(",").map(s => s.trim()).filter(Boolean) });
      location.hash = `#/table/${page.id}`;
    } catch (err) { showError(err.message); }
  };
  return h("div", { "class": "panel" }, h("h2", {}, "Play from here"),
    h("div", { "class": "controls" }, "you in ", seat, " against ", agents, h("button", { onclick: go, id: "branch" }, "Play")));
}

// ----- tournaments

async function tournamentPage(q) {
  current = { kind: "tournament" };
  const t = await api("GET", `/api/tournament?path=${encodeURIComponent(q.get("path"))}`);
  const pct = v => v === null ? "–" : `${(100 * v).toFixed(1)}%`;
  const cols = ["agent", "games", "wins", "win_rate", "win_rate_low", "win_rate_high", "rating_mu", "rating_sigma"];
  const num = v => typeof v === "number" ? (Number.isInteger(v) ? v : v.toFixed(3)) : v;
  main.replaceChildren(h("div", { "class": "panel" }, h("h2", {}, `Tournament ${t.path}`),
    h("table", { id: "standings" }, h("tr", {}, cols.map(c => h("th", {}, c.replace(/_/g, " ")))),
      t.standings.map(s => h("tr", {}, cols.map(c => h("td", {}, c.startsWith("win_rate") ? pct(s[c]) : num(s[c])))))),
    h("h2", {}, "Head to head (row finished ahead of column)"),
    h("table", {}, h("tr", {}, h("th", {}), t.head_to_head.agents.map(a => h("th", {}, a))),
      t.head_to_head.ahead.map((row, i) => h("tr", {}, h("td", {}, t.head_to_head.agents[i]), row.map(v => h("td", {}, pct(v)))))),
    h("h2", {}, "Games"),
    h("table", {}, h("tr", {}, ["game", "agents", "winners", "reason", "rounds", "replay"].map(c => h("th", {}, c))),
      t.games.map(g => h("tr", {}, h("td", {}, g.index), h("td", {}, g.agents.join(", ")),
        h("td", {}, g.winners.map(w => g.agents[w]).join(", ")), h("td", {}, g.reason), h("td", {}, g.rounds),
        h("td", {}, g.record ? h("a", { href: `#/replay?path=${encodeURIComponent(g.record)}&seat=table` }, "replay") : "–"))))));
}

window.addEventListener("hashchange", route);
route();

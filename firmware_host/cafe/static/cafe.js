// The café dashboard: one live tile per board, drawn from what the boards publish.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const watched = location.pathname.startsWith("/watch/")
  ? decodeURIComponent(location.pathname.slice("/watch/".length)) : null;
const tables = new Map();   // board id -> {view, el}
const layouts = new Map();  // layout key -> sites, or a pending promise
let controls = false;
let games = [];
let socket = null;

// ---------------------------------------------------------------- the feed
function connect() {
  const query = params.get("token") ? `?token=${encodeURIComponent(params.get("token"))}` : "";
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${query}`);
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => {
    showBroker(null);
    setTimeout(connect, 1000);
  };
}

function receive(msg) {
  if (msg.type === "hello") {
    controls = msg.controls && !watched;
    games = msg.games;
    showBroker(msg.broker);
    for (const view of msg.tables) update(view);
    sortTiles();
  } else if (msg.type === "table") {
    update(msg.table);
    sortTiles();
  } else if (msg.type === "broker") {
    showBroker(msg.connected);
  } else if (msg.type === "reply") {
    toast(`${msg.board}: ${msg.reply.ok ? "done" : msg.reply.error}`);
  } else if (msg.type === "error") {
    toast(msg.error);
  }
}

function showBroker(up) {
  const el = $("broker");
  el.textContent = up === null ? "dashboard disconnected" : up ? "broker connected" : "broker unreachable";
  el.className = `conn ${up ? "up" : "down"}`;
}

function send(board, command) {
  socket.send(JSON.stringify({ type: "command", board, command }));
}

// ---------------------------------------------------------------- tiles
function update(view) {
  if (watched && view.id !== watched) return;
  let table = tables.get(view.id);
  if (!table) {
    table = { view, el: makeTile(view.id) };
    tables.set(view.id, table);
  }
  const before = table.view.state.ply;
  table.view = view;
  if (view.state.ply !== before || !table.el.dataset.plyAt) {
    table.el.dataset.ply = view.state.ply;
    table.el.dataset.plyAt = Date.now();   // when this ply was first shown (bench/cafe.py)
  }
  render(table);
}

function makeTile(id) {
  const el = $("tile").content.firstElementChild.cloneNode(true);
  el.dataset.board = id;
  const name = el.querySelector(".name");
  name.textContent = id;
  name.href = `/watch/${encodeURIComponent(id)}`;
  const form = el.querySelector(".controls");
  form.hidden = !controls;
  const select = form.querySelector(".game");
  for (const game of games) select.append(new Option(game, game));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send(id, { command: "new_game", game: select.value });
  });
  form.querySelector(".takeback").addEventListener("click", () => send(id, { command: "takeback" }));
  $("tables").append(el);
  $("empty").hidden = true;
  return el;
}

function flags(view) {
  const s = view.state;
  const out = [];
  if (!view.online) out.push(["offline", "offline"]);
  if (s.sync === "out_of_sync") out.push(["sync", "out of sync"]);
  if (s.hardware && s.hardware !== "ok") out.push(["hardware", s.hardware]);
  if (view.problem) out.push(["problem", "cannot show"]);
  return out;
}

function render({ view, el }) {
  const s = view.state;
  const flagged = flags(view);
  el.classList.toggle("flagged", flagged.length > 0);
  el.classList.toggle("offline", !view.online);
  el.querySelector(".title").textContent = s.title || s.game || "";
  el.querySelector(".flags").replaceChildren(...flagged.map(([cls, text]) => {
    const b = document.createElement("b");
    b.className = `flag ${cls}`;
    b.textContent = text;
    return b;
  }));
  el.querySelector(".turn").textContent = s.result
    ? s.result[0].toUpperCase() + s.result.slice(1)
    : s.to_move ? `${s.to_move[0].toUpperCase()}${s.to_move.slice(1)} to move · move ${s.ply + 1}` : "";
  el.querySelector(".status").textContent = (s.screen || []).slice(2).join(" · ");
  el.querySelector(".controls").hidden = !controls;
  renderSince(view, el);
  renderDay(view, el);
  draw(view, el.querySelector(".mini"));
}

function renderSince(view, el) {
  const at = view.state.last_move_at;
  el.querySelector(".since").textContent = at ? `last move ${ago(Date.parse(at))}` : "no move yet";
}

function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ago`;
}

function renderDay(view, el) {
  const today = view.state.today;
  const parts = [];
  if (today) {
    parts.push(`${today.played} game${today.played === 1 ? "" : "s"} today`);
    parts.push(...Object.entries(today.results).map(([side, n]) => `${side} ${n}`));
  }
  el.querySelector(".day summary").textContent = parts.join(" · ") || "today";
  el.querySelector(".day ol").replaceChildren(...view.games.map((g) => {
    const li = document.createElement("li");
    li.textContent = `${g.at.slice(11, 16)} ${g.game}: ${g.result} (${g.moves} moves)`;
    return li;
  }));
}

// Flagged tables (offline, out of sync, hardware) first, then by name.
function sortTiles() {
  const order = [...tables.values()].sort((a, b) =>
    (flags(b.view).length > 0) - (flags(a.view).length > 0) || a.view.id.localeCompare(b.view.id));
  const box = $("tables");
  order.forEach((t, i) => { if (box.children[i] !== t.el) box.insertBefore(t.el, box.children[i]); });
  $("summary").textContent = `${tables.size} table${tables.size === 1 ? "" : "s"} · ` +
    `${order.filter((t) => flags(t.view).length).length} need attention`;
}

// ---------------------------------------------------------------- the miniature
function layoutOf(key, redraw) {
  const known = layouts.get(key);
  if (Array.isArray(known)) return known;
  if (!known) {
    const path = key.split("/").map(encodeURIComponent).join("/");
    layouts.set(key, fetch(`/layouts/${path}`).then((r) => r.json()).then((data) => {
      layouts.set(key, data.sites);
      redraw();
    }).catch(() => layouts.delete(key)));
  }
  return null;
}

// Pieces in their side's colour; the last move's sites get a bright edge.
const SIDE_COLOURS = { white: "#f4f1ea", black: "#2b2b2b", red: "#c62828", blue: "#1e4fc2",
  green: "#2e7d32" };
const LAST_MOVE = "#ffd54a";

function draw(view, canvas) {
  const sites = view.layout && layoutOf(view.layout, () => draw(tables.get(view.id).view, canvas));
  const ctx = canvas.getContext("2d");
  const size = canvas.clientWidth * devicePixelRatio || canvas.width;
  if (canvas.width !== Math.round(size)) canvas.width = canvas.height = Math.round(size);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!sites) return;
  const points = sites.flatMap((s) => (s.shape.length ? s.shape : [[s.x, s.y]]));
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(x1 - x0, y1 - y0) || 1;
  const pad = canvas.width * 0.06;
  const k = (canvas.width - 2 * pad) / span;
  const X = (x) => pad + (x - x0) * k + ((span - (x1 - x0)) * k) / 2;
  const Y = (y) => pad + (y1 - y) * k + ((span - (y1 - y0)) * k) / 2;
  const unit = spacing(sites) * k;
  ctx.fillStyle = "#c8a56e";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineWidth = Math.max(1, unit * 0.05);
  ctx.strokeStyle = "#7a5b2e";
  for (const s of sites) {
    ctx.beginPath();
    if (s.shape.length >= 2) {
      s.shape.forEach(([x, y], i) => (i ? ctx.lineTo(X(x), Y(y)) : ctx.moveTo(X(x), Y(y))));
      if (s.shape.length > 2) ctx.closePath();
    } else {
      ctx.arc(X(s.x), Y(s.y), unit * 0.1, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }
  const pieces = new Set(view.pieces), changed = new Set(view.changed), sides = view.sides || {};
  const colour = (label) => SIDE_COLOURS[sides[label]] || "#2b2b2b";
  const missing = new Set(view.state.missing || []), extra = new Set(view.state.extra || []);
  for (const s of sites) {
    const mark = missing.has(s.label) ? "#f0a030" : extra.has(s.label) ? "#e5534b" : null;
    if (!pieces.has(s.label) && !mark) continue;
    ctx.beginPath();
    if (s.shape.length === 2) {
      const [[ax, ay], [bx, by]] = s.shape;
      ctx.moveTo(X(ax + 0.15 * (bx - ax)), Y(ay + 0.15 * (by - ay)));
      ctx.lineTo(X(bx - 0.15 * (bx - ax)), Y(by - 0.15 * (by - ay)));
      if (changed.has(s.label) && !mark) {  // the last move: a bright edge under the rod
        ctx.lineWidth = unit * 0.36;
        ctx.strokeStyle = LAST_MOVE;
        ctx.stroke();
      }
      ctx.lineWidth = unit * 0.25;
      ctx.strokeStyle = mark || colour(s.label);
      ctx.stroke();
      continue;
    }
    ctx.arc(X(s.x), Y(s.y), unit * 0.36, 0, 2 * Math.PI);
    if (pieces.has(s.label)) {
      ctx.fillStyle = colour(s.label);
      ctx.fill();
      if (changed.has(s.label) && !mark) {
        ctx.lineWidth = unit * 0.1;
        ctx.strokeStyle = LAST_MOVE;
        ctx.stroke();
      }
    }
    if (mark) {
      ctx.lineWidth = unit * 0.12;
      ctx.strokeStyle = mark;
      ctx.stroke();
    }
  }
}

function spacing(sites) {
  const c = sites.slice(0, 64);
  const near = c.map((a) => Math.min(...sites.filter((b) => b !== a && (b.x !== a.x || b.y !== a.y))
    .map((b) => Math.hypot(b.x - a.x, b.y - a.y))));
  near.sort((a, b) => a - b);
  return near[Math.floor(near.length / 2)] || 1;
}

// ---------------------------------------------------------------- little things
let toastTimer = 0;
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

if (watched) {
  document.body.classList.add("watch");
  $("home").textContent = `reedboard café · ${watched}`;
  // The screen's size decides the board's: redraw it sharp at the new size.
  addEventListener("resize", () => tables.forEach((t) => draw(t.view, t.el.querySelector(".mini"))));
}
setInterval(() => tables.forEach((t) => renderSince(t.view, t.el)), 1000);
connect();

// @ts-check
// The café dashboard: one live tile per board, drawn from what the boards publish (the
// dashboard checks every message before it gets here), the alerts, and the controls. Each
// board is drawn as the board's own page draws it (/shared/board.js). An ES module.
import { Board, lastMove } from "../shared/board.js";
import { loadControls } from "../shared/controls.js";
import { load, ngettext, seatName, sideName, t } from "../shared/i18n.js";

await load();  // the dashboard's words in its language
await loadControls();  // the time controls a tile's New game offers

/** The page's element ``id`` (its own markup: any element). @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const watched = location.pathname.startsWith("/watch/")
  ? decodeURIComponent(location.pathname.slice("/watch/".length)) : null;
const tables = new Map();   // board id -> {view, order, el, board, seen, stale, shown, relayout, due}
const layouts = new Map();  // layout key -> its board (sites, drawing), or the tables waiting for it
const waiting = new Map();  // board -> timer of a command the board has not answered yet
let controls = false;
let games = [];
let socket = null;
let brokerUp = null;
let alerts = [];
// Seconds a board has to answer a command before the page says it did not.
const ANSWER_S = 5;

// ---------------------------------------------------------------- the feed
function connect() {
  const query = params.get("token") ? `?token=${encodeURIComponent(params.get("token"))}` : "";
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${query}`);
  socket.onmessage = (e) => {  // a message, or those that queued up meanwhile as a list
    const data = JSON.parse(e.data);
    for (const msg of Array.isArray(data) ? data : [data]) receive(msg);
  };
  socket.onclose = () => {
    showBroker(null);
    setTimeout(connect, 1000);
  };
}

function receive(msg) {
  if (msg.type === "hello") {
    controls = msg.controls && !watched;
    games = msg.games;
    alerts = msg.alerts || [];
    showBroker(msg.broker);
    for (const view of msg.tables) update(view);
    redraw([...tables.values()]);
    sortTiles();
    showAlerts();
  } else if (msg.type === "table") {
    later(msg.table);
  } else if (msg.type === "broker") {
    showBroker(msg.connected);
  } else if (msg.type === "reply") {
    answered(msg.board);
    toast(nameOf(msg.board) + ": " + (msg.reply.ok ? t("done") : msg.reply.error));
  } else if (msg.type === "alert") {
    alerts.unshift(msg.alert);
    alerts.length = Math.min(alerts.length, 20);
    showAlerts();
  } else if (msg.type === "retired") {
    const table = tables.get(msg.board);
    if (table) {
      inView.unobserve(table.el);
      table.el.remove();
    }
    tables.delete(msg.board);
    sortTiles();
  } else if (msg.type === "error") {
    if (msg.board) answered(msg.board);
    toast(msg.error);
  }
}

// The dashboard's own link to the broker: while it is down the tiles show what the boards last
// said (they play on), and no table is flagged offline for it.
function showBroker(up) {
  brokerUp = up;
  const el = $("broker");
  el.textContent = up === null ? t("dashboard disconnected") : up ? t("broker connected") : t("broker unreachable");
  el.className = `conn ${up ? "up" : "down"}`;
  $("broker-down").hidden = up !== false;
  document.body.classList.toggle("broker-down", up === false);
  tables.forEach((table) => {  // flags (and so places) depend on the dashboard's broker
    table.stale = true;
    table.order = orderOf(table.view);
  });
  redraw([...tables.values()]);
  sortTiles();
}

function send(board, message) {
  socket.send(JSON.stringify({ board, ...message }));
}

function command(board, body) {
  send(board, { type: "command", command: body });
  clearTimeout(waiting.get(board));
  waiting.set(board, setTimeout(() => {
    waiting.delete(board);
    toast(t("{table} did not answer in {n} s", { table: nameOf(board), n: ANSWER_S }));
  }, ANSWER_S * 1000));
}

function answered(board) {
  clearTimeout(waiting.get(board));
  waiting.delete(board);
}

// Text changed only when it differs: writing the same text still makes the page lay out again.
// An element holding one text node keeps it and has its text changed (not a node put in its
// place).
function setText(el, text) {
  const node = el.firstChild;
  if (node && node === el.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.data !== text) node.data = text;
  } else if (el.textContent !== text) {
    el.textContent = text;
  }
}

// A control's value set only when it differs (a slider set again is drawn again).
function setValue(input, value) {
  if (input.value !== value) input.value = value;
}

// Shown or hidden, the attribute written only when that changes.
function setHidden(el, hidden) {
  if (el.hidden !== hidden) el.hidden = hidden;
}

function nameOf(board) {
  const table = tables.get(board);
  return table ? table.view.name : board;
}

// ---------------------------------------------------------------- tiles
// Tables changed since the last frame: taken in together once a frame (200 boards playing send
// over a hundred changes a second; each drawn alone would lay the page out each time).
const pending = new Map();
// The tiles to draw, in the order they changed: each frame draws them until its budget is spent
// and leaves the rest to the next frame, so that no frame grows with how many tables changed at
// once (a round of moves, the broker back, tiles scrolled into view, a new screen size).
const toDraw = new Set();
// Milliseconds of drawing a frame may take (a tile's board is drawn in about one); the first
// tile is always drawn.
const FRAME_BUDGET_MS = 8;
let frame = 0;
// The boards to build (a new game, a tile first seen) or to fit to a new screen size are done
// one a task, between the frames: building a board of a large game takes tens of milliseconds.
const building = new MessageChannel();
let buildAsked = false;

function later(view) {
  const table = tables.get(view.id);
  if (watched && view.id !== watched) return;
  withListing(view, pending.get(view.id) || table?.view);
  view.received = Date.now();  // the clocks count down from here
  if (table && !table.seen && !pending.has(view.id) && orderOf(view) === table.order) {
    if (view.layout !== table.view.layout) moreAhead();  // a new game: its board to build
    table.view = view;  // out of view, in its place: kept for when it comes into view, no frame
    table.stale = true;
    return;
  }
  const queued = pending.get(view.id);
  // When the page received this ply (bench/cafe.py): the first message that brought it.
  view.got = queued && queued.state.ply === view.state.ply ? queued.got : Date.now();
  pending.set(view.id, view);
  askFrame();
}

function askFrame() {
  if (!frame) frame = requestAnimationFrame(flush);
}

// The tiles of ``list`` drawn in the frames to come (those in view that changed).
function redraw(list) {
  for (const table of list) if (table) toDraw.add(table);
  if (toDraw.size) askFrame();
}

function flush() {
  frame = 0;
  const began = performance.now();
  const views = [...pending.values()];
  pending.clear();
  const moved = views.some((view) => orderOf(view) !== tables.get(view.id)?.order);
  for (const view of views) update(view);
  redraw(views.map((view) => tables.get(view.id)));
  for (const table of toDraw) if (!table.seen || !table.stale) toDraw.delete(table);  // drawn when seen
  if (moved) sortTiles();  // the header's count changes only with a tile's place (or a new tile)
  let drawn = 0;
  for (const table of toDraw) {
    if (drawn && performance.now() - began > FRAME_BUDGET_MS) break;
    if (needsBox(table)) continue;  // built in a task of its own
    toDraw.delete(table);
    render(table);
    drawn += 1;
  }
  for (const table of ticking) {  // the time lines due, in what is left of the budget
    if (performance.now() - began > FRAME_BUDGET_MS) break;
    ticking.delete(table);
    if (table.seen) guard(table, () => renderTimes(table));
  }
  if ([...toDraw].some(needsBox)) askBuild();
  if (ticking.size || [...toDraw].some((table) => !needsBox(table))) askFrame();
}

// Whether a tile's board is to be built (its game changed) or fitted to a new screen size: it
// needs the board's box on the screen.
function needsBox(table) {
  return table.relayout || table.el.dataset.drawn !== table.view.layout;
}

function askBuild() {
  if (buildAsked) return;
  buildAsked = true;
  building.port2.postMessage(0);
}

// The first board waiting to be built, its box measured before anything is written.
building.port1.onmessage = () => {
  buildAsked = false;
  const table = [...toDraw].find((t) => t.seen && t.stale && needsBox(t));
  if (!table) return;
  const box = table.el.querySelector(".mini").getBoundingClientRect();
  toDraw.delete(table);
  render(table, box);
  if ([...toDraw].some(needsBox)) askBuild();
};

// A table's games to offer (a few kilobytes) come only when they change: a view without them
// keeps the list the table had.
function withListing(view, before) {
  if (!("playable" in view.state)) view.state.playable = before?.state.playable || [];
}

// What a tile's place among the others depends on: whether it needs attention, its name.
function orderOf(view) {
  return view ? `${needsAttention(view)}:${view.name}` : "";
}

// Only the tiles in view (or about to be) are drawn: a table off the screen keeps its latest
// state and is drawn from it when it comes into view. A tile made off the screen has its words
// written once, so that it takes its place in the grid. Its board is not rendered either
// (cafe.css, ".far"): the browser renders the tiles within a screen and a half of the screen,
// and put their boards together for the compositor again in each frame that drew a tile.
const inView = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const table = tables.get(/** @type {HTMLElement} */ (entry.target).dataset.board);
    if (!table) continue;
    table.seen = entry.isIntersecting;
    table.el.classList.toggle("far", !table.seen);
    if (table.seen && table.stale) redraw([table]);  // in the next frames
    else if (table.seen) guard(table, () => {
      renderControls(table);
      renderTimes(table);  // its clocks and "since" were left as they were while out of view
    });
    else dropControls(table);
  }
  moreAhead();  // the boards near the view
}, { rootMargin: "200px" });

// A jump (the End key, the scroll bar dragged) brings tiles that were far: those now on the
// screen have their boards rendered in the frame that shows them (the scroll event comes before
// it), not blank until the observer says they are in view after it. A scroll shorter than the
// observer's margin brings none. Tiles are found at points a tile's width apart, all of them
// before any is changed (a change between two would make the browser lay the page out again).
let scrolledTo = scrollY;
addEventListener("scroll", () => {
  const jump = Math.abs(scrollY - scrolledTo) > 200;
  scrolledTo = scrollY;
  if (!jump) return;
  const found = new Set();
  for (let y = 0; y < innerHeight + 199; y += 200) {
    for (let x = 10; x < innerWidth; x += 200) {
      found.add(document.elementFromPoint(x, Math.min(y, innerHeight - 1))?.closest(".tile.far"));
    }
  }
  for (const tile of found) tile?.classList.remove("far");
}, { passive: true });

function update(view) {
  if (watched && view.id !== watched) return;
  let table = tables.get(view.id);
  const made = !table;
  if (made || view.layout !== table.view.layout) moreAhead();
  if (made) {
    table = { view, order: "", el: makeTile(view.id), seen: false, stale: true, shown: {}, relayout: false, due: 0 };
    tables.set(view.id, table);
    inView.observe(table.el);
  }
  table.view = view;
  table.order = orderOf(view);
  table.stale = true;  // drawn again if in view (redraw), else when it comes into view
  if (made) guard(table, () => renderTile(table));
}

// One table's state never stops the others: what went wrong is said on its tile.
function guard(table, draw) {
  try {
    draw();
  } catch (error) {
    table.el.querySelector(".status").textContent = `cannot show this table (${error.message})`;
  }
}

function render(table, frame) {
  table.stale = false;
  guard(table, () => {
    renderTile(table);
    drawTile(table, frame);
  });
  const { view, el } = table;
  if (String(view.state.ply) !== el.dataset.ply || !el.dataset.plyAt) {
    el.dataset.ply = view.state.ply;
    el.dataset.plyAt = Date.now();   // when the tile showed this ply (bench/cafe.py)
    el.dataset.plyGot = view.got || el.dataset.plyAt;  // and when the page received it
  }
}

function makeTile(id) {
  const el = $("tile").content.firstElementChild.cloneNode(true);
  el.dataset.board = id;
  const name = el.querySelector(".name");
  name.href = `/watch/${encodeURIComponent(id)}`;
  $("tables").append(el);
  $("empty").hidden = true;
  return el;
}

// A tile's controls, made as it comes into view and dropped as it leaves (unless in use): the
// browser's autofill reads every form field on the page when one changes, and 200 tiles' fields
// made it lay out and style each tile skipped off the screen (a second and more of its time).
function controlsOf(table) {
  const { el } = table;
  const id = el.dataset.board;
  const made = el.querySelector(".controls");
  if (made) return made;
  const form = $("controls-form").content.firstElementChild.cloneNode(true);
  form.querySelector(".games-link").href = `/tables/${encodeURIComponent(id)}`;
  const select = form.querySelector(".game");
  const clock = form.querySelector("select.clock");
  const open = () => openLists(tables.get(id), select, clock);
  for (const list of [select, clock]) {
    list.addEventListener("focus", open);
    list.addEventListener("pointerdown", open);
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    newGame(id, select.value, clock.value);
  });
  form.querySelector(".takeback").addEventListener("click", () => command(id, { command: "takeback" }));
  const light = form.querySelector(".brightness");
  light.addEventListener("change", () => command(id, { command: "brightness", value: light.value / 100 }));
  form.querySelector(".rename").addEventListener("click", () => rename(id));
  form.querySelector(".retire").addEventListener("click", () => retire(id));
  el.append(form);
  return form;
}

// The controls of a tile gone from view taken off it, unless the owner is using them.
function dropControls(table) {
  const form = table.el.querySelector(".controls");
  if (form && !form.contains(document.activeElement) && !$("ask").open) form.remove();
}

// A new game of the table's playable game titled ``title`` (its game, size and variant; a board
// that lists only names plays its own size and variant of its own game) on the time control
// ``control`` ("": as it is); asked first when a game is under way there.
function newGame(id, title, control) {
  const { view } = tables.get(id);
  const s = view.state;
  const chosen = offered(s).find((p) => p.title === title);
  if (!chosen) return;
  /** @type {Record<string, unknown>} */
  const body = { command: "new_game", game: chosen.game };
  if (control) body.control = control;
  if ("size" in chosen) Object.assign(body, { size: chosen.size, variant: chosen.variant });
  else if (chosen.game === s.game) Object.assign(body, { size: s.size, variant: s.variant });
  const going = s.ply > 0 && !s.result;
  if (!going) return command(id, body);
  ask(t("{table} is playing {game} (move {n}). End that game and start a new one?",
    { table: view.name, game: s.title || s.game, n: s.ply + 1 }), t("End it and start"), () => command(id, body));
}

function rename(id) {
  const { view } = tables.get(id);
  const input = $("ask-name");
  input.hidden = false;
  input.value = view.name === id ? "" : view.name;
  ask(t("A name for table {id} (empty: its id)", { id }), t("Rename"),
    () => send(id, { type: "rename", name: input.value.trim() || null }));
}

function retire(id) {
  ask(t("Retire table {id}? It goes from the dashboard and from Home Assistant; its games stay in the archive.", { id }),
    t("Retire"), () => send(id, { type: "retire" }));
}

// A question in the page's own dialog: OK runs ``yes``.
function ask(text, ok, yes) {
  const dialog = $("ask");
  $("ask-text").textContent = text;
  $("ask-ok").textContent = ok;
  dialog.onclose = () => {
    $("ask-name").hidden = true;
    if (dialog.returnValue === "ok") yes();
  };
  dialog.returnValue = "";
  dialog.showModal();
}

function flags(view) {
  const s = view.state;
  const out = [];
  // While the dashboard itself has no broker, the banner says so: no table is flagged for it.
  if (brokerUp !== false && view.reconnecting) out.push(["reconnecting", t("reconnecting")]);
  else if (brokerUp !== false && !view.online) out.push(["offline", t("offline")]);
  if (s.sync === "out_of_sync") out.push(["sync", t("out of sync")]);
  if (s.hardware && s.hardware !== "ok") out.push(["hardware", s.hardware]);
  if (view.problem) out.push(["problem", t("cannot show")]);
  return out;
}

function needsAttention(view) {
  return flags(view).some(([cls]) => cls !== "reconnecting");
}

// Who plays at the table: the league round's "Table 3: Anna – Ben", else the players' names.
function seatsLine(s) {
  const names = (s.players || []).join(" – ");
  return s.league ? `Table ${s.league.table}: ${names}` : names;
}

// The player at ``side``'s seat, else the side's own name.
function renderTile(table) {
  const { view, el } = table;
  const s = view.state;
  const flagged = flags(view);
  el.classList.toggle("flagged", needsAttention(view));
  el.classList.toggle("offline", !view.online);
  setText(el.querySelector(".name"), view.name);
  setText(el.querySelector(".title"), s.title || s.game || "");
  setText(el.querySelector(".players"), seatsLine(s));
  const box = el.querySelector(".flags");
  if (box.dataset.flags !== flagged.join()) {
    box.dataset.flags = flagged.join();
    box.replaceChildren(...flagged.map(([cls, text]) => {
      const b = document.createElement("b");
      b.className = `flag ${cls}`;
      b.textContent = text;
      return b;
    }));
  }
  setText(el.querySelector(".turn"), s.result
    ? s.result[0].toUpperCase() + s.result.slice(1)
    : s.ready ? s.ready
    : s.to_move ? t("{side} to move", { side: seatName(s.players, s.sides, s.to_move) }) + " · " + t("move {n}", { n: s.ply + 1 }) : "");
  setText(el.querySelector(".status"), view.lines.join(" · "));
  renderControls(table);
  renderTimes(table);
  renderDay(view, el);
}

function renderControls(table) {
  if (!controls || !table.seen) return dropControls(table);
  const form = controlsOf(table);
  const { view } = table;
  const s = view.state;
  showGames(form.querySelector(".game"), s);
  const light = form.querySelector(".brightness");
  if (typeof s.brightness === "number" && document.activeElement !== light) {
    setValue(light, String(Math.round(s.brightness * 100)));
  }
  // A command needs the table and the dashboard's own broker: while either is away, no button.
  const reachable = view.online && brokerUp !== false;
  if (form.dataset.reachable !== `${reachable} ${brokerUp}`) {
    form.dataset.reachable = `${reachable} ${brokerUp}`;
    for (const button of form.querySelectorAll(".needs-online")) {
      button.disabled = !reachable;
      button.title = brokerUp === false ? "The dashboard cannot reach the broker" : "";
    }
  }
  setHidden(form.querySelector(".retire"), view.online);
}

// A tile's New game list: the table's game, chosen, and the others the table plays once the
// list has been opened (openLists). Each tile's whole list built at the first message was most
// of the time the page took to open at 200 tables, for lists nobody had opened. Until it is
// opened the longest title waits in it hidden, so that it is as wide as the whole list: a list
// as narrow as its one game looked like a table that plays nothing else.
function showGames(select, s) {
  const titles = offered(s).map((p) => p.title);
  const now = s.choice || s.game;
  const open = select.dataset.open || !titles.includes(now);
  const widest = titles.reduce((a, b) => (b.length > a.length ? b : a), now);
  const shown = open ? titles : [...new Set([now, widest])];
  const key = `${Boolean(open)}\n${shown.join("\n")}`;
  if (select.dataset.offered !== key) {
    select.replaceChildren(...shown.map((title) => new Option(title, title)));
    if (!open && shown.length > 1) Object.assign(select.options[1], { hidden: true, disabled: true });
    select.dataset.offered = key;
    delete select.dataset.game;
  }
  if (select.dataset.game !== now) {  // the table's game, until someone picks another
    select.dataset.game = now;
    if (titles.includes(now)) select.value = now;
  }
}

// A tile's lists filled as the owner opens one of them (a press, or the keyboard's focus),
// before the browser shows it: every game the table plays, every time control.
function openLists(table, games, clock) {
  if (!table || games.dataset.open) return;
  games.dataset.open = "true";
  const times = $("controls").content.querySelector("select").options;
  clock.append(...Array.from(times, (o) => new Option(o.text, o.value)));  // none chosen
  guard(table, () => showGames(games, table.view.state));
}

// The games a table's New game offers: each game, size and variant its board plays, titled
// (a board that lists only the games' names: those, else every game).
function offered(s) {
  if (s.playable && s.playable.length) return s.playable;
  return (s.games && s.games.length ? s.games : games).map((g) => ({ game: g, title: g }));
}

// The game clocks of a table (none without a clock): each side's time, the running one counted
// down from the state's reading (the board sends it at each press) and marked, a flag, a pause.
function renderClocks(view, el) {
  const clock = view.state.clock;
  const box = el.querySelector(".clocks");
  setHidden(box, !clock);
  if (!clock) return;
  const counting = clock.running && !clock.paused && !clock.flag;
  const since = counting ? Date.now() - (view.received || Date.now()) : 0;
  const text = Object.entries(clock.left).map(([side, ms]) => {
    const mark = side === clock.flag ? "⚑ " : side === clock.running ? "▶ " : "";
    return `${mark}${seatName(view.state.players, view.state.sides, side)} ${clockText(side === clock.running ? ms - since : ms)}`;
  }).join("  ");
  setText(box, clock.paused ? t("Paused · {clocks}", { clocks: text }) : text);
  const title = t("Time control {control}", { control: clock.control });
  if (box.title !== title) box.title = title;
}

// A clock as the board's screen shows it: h:mm:ss, m:ss, tenths in the last 10 s.
function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${Math.floor(s / 60)}:${ss}`;
}

// ---------------------------------------------------------------- the time lines
// A tile's clocks and how long ago its last move was: written as the tile is drawn, then, while
// it is in view, when their text is due to change (a clock counting down each second, "since"
// at its next step), a few tiles a frame in the frames' budget (flush): the whole wall's in one
// task took tens of milliseconds of a frame. A tile out of view is brought up to date as it
// comes into view.
const ticking = new Set();  // the tiles in view whose time lines are due

function renderTimes(table) {
  const { view, el } = table;
  renderClocks(view, el);
  renderSince(view, el);
  table.due = timesDue(view.state);
}

// When a table's time lines next change (ms since the epoch): at every second's tick while a
// clock counts down, else at the next step of "since" (ago: a whole second rounded, in steps of
// 10 s under a minute, then of a minute).
function timesDue(s) {
  const clock = s.clock;
  if (clock && clock.running && !clock.paused && !clock.flag) return 0;
  if (!s.last_move_at) return Infinity;
  const at = Date.parse(s.last_move_at);
  const seconds = (Date.now() - at) / 1000;
  const step = seconds < 59.5 ? 10 : 60;
  return at + ((Math.floor((seconds + 0.5) / step) + 1) * step - 0.5) * 1000;
}

function renderSince(view, el) {
  const at = view.state.last_move_at;
  setText(el.querySelector(".since"), at ? t("last move {ago}", { ago: ago(Date.parse(at)) }) : t("no move yet"));
}

// How long ago, in steps of 10 s under a minute: the tiles in view are written (so laid out and
// painted again) as the step changes, not every second.
function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return t("{s} s ago", { s: s - (s % 10) });
  if (s < 3600) return t("{m} min ago", { m: Math.floor(s / 60) });
  return t("{h} h {m} min ago", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}

function renderDay(view, el) {
  const today = view.state.today;
  const parts = [];
  if (today) {
    parts.push(ngettext("{n} game today", "{n} games today", today.played));
    parts.push(...Object.entries(today.results).map(([side, n]) => t(side) + " " + n));
  }
  setText(el.querySelector(".day summary"), parts.join(" · ") || t("today"));
  const list = el.querySelector(".day ol");
  const shown = view.games.map((g) => g.key).join();
  if (list.dataset.games === shown) return;
  list.dataset.games = shown;
  list.replaceChildren(...view.games.map((g) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/tables/${encodeURIComponent(view.id)}/games/${encodeURIComponent(g.key)}`;
    const moves = ngettext("{n} move", "{n} moves", g.moves);
    a.textContent = `${g.time} ${g.game}: ${g.result} (${moves})`;
    li.append(a);
    return li;
  }));
}

// Flagged tables (offline, out of sync, hardware) first, then by name.
function sortTiles() {
  const flagged = (t) => Number(needsAttention(t.view));
  const order = [...tables.values()].sort((a, b) =>
    flagged(b) - flagged(a) || a.view.name.localeCompare(b.view.name));
  const box = $("tables");
  order.forEach((t, i) => { if (box.children[i] !== t.el) box.insertBefore(t.el, box.children[i]); });
  showSummary();
}

function showSummary() {
  const flagged = [...tables.values()].filter((t) => needsAttention(t.view)).length;
  const count = ngettext("{n} table", "{n} tables", tables.size);
  const attention = ngettext("{n} needs attention", "{n} need attention", flagged);
  setText($("summary"), `${count} · ${attention}`);
}

// ---------------------------------------------------------------- alerts
function showAlerts() {
  const list = $("alerts");
  list.hidden = watched !== null || alerts.length === 0;
  list.querySelector("ol").replaceChildren(...alerts.slice(0, 8).map((a) => {
    const li = document.createElement("li");
    li.className = `alert ${a.kind}`;
    li.textContent = `${a.time} ${a.name}: ${t(a.what)}`; // sent in English, for Home Assistant too
    return li;
  }));
}

// ---------------------------------------------------------------- the miniature
// The board of a layout: fetched once, every table that waits for it drawn when it comes.
function layoutOf(key, board) {
  const known = layouts.get(key);
  if (known && !(known instanceof Set)) return known;
  if (known) {
    known.add(board);
    return null;
  }
  const boards = new Set([board]);
  layouts.set(key, boards);
  const path = key.split("/").map(encodeURIComponent).join("/");
  fetch(`/layouts/${path}`).then((r) => r.json()).then((data) => {
    layouts.set(key, data);
    for (const id of boards) {
      const table = tables.get(id);
      if (table) table.stale = true;
    }
    redraw([...boards].map((id) => tables.get(id)));
    moreAhead();
  }).catch(() => layouts.delete(key));
  return null;
}

// What a board asks of the players to set it right, marked as its lights mark it: a piece to
// put back, a piece to take off.
const FIX = { missing: ["#ff6400", "steady"], extra: ["#ff0000", "steady"] };

// The table's board: built when its game (layout) changes, then each of its pieces, its last
// move and what is out of place drawn again only when it changed (a state that changes nothing
// on the board, the clock or the screen, draws nothing).
function drawTile(table, frame) {
  const { view, el } = table;
  const layout = view.layout && layoutOf(view.layout, view.id);
  if (!layout) {
    el.querySelector(".mini").replaceChildren();
    el.querySelector(".under").replaceChildren();
    el.dataset.drawn = "";
    return;
  }
  const board = buildBoard(table, layout, frame);
  // As the board's page shows it: a piece to put back is faint (its sensor sees nothing), a
  // piece to take off is a bare reading, and their sites are marked as the board lights them.
  const seen = new Set(view.pieces);
  const leds = {}, kinds = {};
  for (const kind of ["missing", "extra"]) {
    for (const site of view.state[kind] || []) {
      leds[site] = FIX[kind];
      kinds[site] = kind;
      if (kind === "missing") seen.delete(site); else seen.add(site);
    }
  }
  /** Each part of the drawing: its name, what it shows, how it is drawn. @type {[string, any, () => void][]} */
  const parts = [
    ["figures", [board.sides, view.figures], () => board.showFigures(view.figures)],
    ["pieces", [...seen].sort(), () => board.showPieces(seen)],
    ["last", [view.changed, view.pieces], () => board.showLast(lastMove(view.changed, view.pieces))],
    ["lights", leds, () => board.showLights(leds, kinds)],
  ];
  for (const [name, what, draw] of parts) {
    const key = JSON.stringify(what);
    if (table.shown[name] === key) continue;
    table.shown[name] = key;
    draw();
  }
}

// A tile's board built for its game (its cells and coordinates beneath, painted once: a move
// paints its pieces again, not those), or fitted to a new screen size.
function buildBoard(table, layout, frame) {
  const { view, el } = table;
  table.board ||= new Board(el.querySelector(".mini"), { interactive: false, under: el.querySelector(".under") });
  const board = table.board;
  board.sides = view.state.sides || [];
  if (el.dataset.drawn !== view.layout) {
    board.build(layout.sites, layout.drawing, frame);
    el.dataset.drawn = view.layout;
    table.shown = {};  // drawn afresh
    table.relayout = false;
  } else if (table.relayout) {  // the screen changed size while the tile was out of view
    board.layout(frame);
    table.relayout = false;
  } else {
    return board;
  }
  frame ||= el.querySelector(".mini").getBoundingClientRect();  // as the board measured it
  el.dataset.cells = pictureOf(el.querySelector(".under"), view.layout, frame);
  return board;
}

// A picture of a board's cells and coordinates (its frame beneath, as an image), shown in place
// of a board the browser does not render (far from the screen, cafe.css): a frame the browser
// draws while a scroll moves faster than the page renders the boards it brings shows the board's
// cells, not a blank. One rule for each game and size, not an image in each tile: the tile is
// marked with its number (data-cells).
const pictures = new Map();  // game, view box and size -> its number
const pictureSheet = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, pictureSheet];

function pictureOf(under, layout, { width, height }) {
  const key = `${layout} ${under.getAttribute("viewBox")} ${width}x${height}`;
  if (pictures.has(key)) return pictures.get(key);
  const n = String(pictures.size);
  pictures.set(key, n);
  const copy = under.cloneNode(true);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  const style = document.createElementNS("http://www.w3.org/2000/svg", "style");
  style.textContent = boardStyles();
  copy.prepend(style);
  const url = `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
  pictureSheet.insertRule(`.tile.far[data-cells="${n}"] .board { background: url("${url}") 0 0 / 100% 100%; }`);
  return n;
}

// The board's own styles (/shared/board.css), for its picture.
function boardStyles() {
  const sheet = [...document.styleSheets].find((s) => s.href?.endsWith("/shared/board.css"));
  return sheet ? Array.from(sheet.cssRules, (rule) => rule.cssText).join("\n") : "";
}

// The boards of the tiles out of view built ahead (or fitted to a new screen size) in the
// page's idle time, nearest the screen first, while the idle period lasts: a tile scrolled to
// then has only its state drawn, its pieces and words (a board of a large game takes milliseconds
// to build, and the tiles a scroll brings came as tasks one after the other). What it shows is
// still drawn as it comes into view, and its board not rendered while far (cafe.css, ".far").
// Only the tiles near those in view, as the view moves: every board of a wall of 200 built
// made the page's memory-reducing garbage collection 40 ms and more (it walks every element).
const AHEAD_TILES = 48;
const AHEAD_MS = 8;  // the idle time one more board's build needs
let aheadAsked = false;
// Whether a board may be left to build ahead: none once the tiles were looked through, until
// the view moves, a tile or a game comes, or the screen changes size (moreAhead).
let aheadLeft = true;

function moreAhead() {
  aheadLeft = true;
  askAhead();
}

function askAhead() {
  if (aheadAsked || !aheadLeft || !("requestIdleCallback" in window)) return;  // else built when seen
  aheadAsked = true;
  requestIdleCallback(buildAhead);
}

function buildAhead(deadline) {
  aheadAsked = false;
  for (let table = nextAhead(); table; table = nextAhead()) {
    if (deadline.timeRemaining() < AHEAD_MS) return askAhead();
    const layout = layouts.get(table.view.layout);
    guard(table, () => buildBoard(table, layout, table.el.querySelector(".mini").getBoundingClientRect()));
  }
  aheadLeft = false;
}

// The tile out of view nearest those in view (in the wall's order, at most AHEAD_TILES away)
// whose board is to be built or fitted, its game's board fetched.
function nextAhead() {
  const tiles = [...$("tables").children];
  const seen = tiles.map((el) => Boolean(tables.get(el.dataset.board)?.seen));
  const first = Math.max(0, seen.indexOf(true)), last = Math.max(first, seen.lastIndexOf(true));
  let best = null, far = AHEAD_TILES + 1;
  tiles.forEach((el, i) => {
    const table = tables.get(el.dataset.board);
    const away = Math.max(first - i, i - last);
    if (!table || seen[i] || away >= far || !needsBox(table)) return;
    const layout = layouts.get(table.view.layout);
    if (layout && !(layout instanceof Set)) [best, far] = [table, away];
  });
  return best;
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
}
// The screen's size decides the coordinates' size on each board: each fitted again, those in
// view over the next frames, the others as they come into view.
addEventListener("resize", () => {
  tables.forEach((t) => {
    if (!t.board) return;
    t.relayout = true;
    t.stale = true;
  });
  redraw([...tables.values()]);
  moreAhead();
});
// Each second, the tiles in view whose clocks or "since" are due, written in the next frames.
setInterval(() => {
  const now = Date.now();
  for (const table of tables.values()) if (table.seen && !(table.due > now)) ticking.add(table);
  if (ticking.size) askFrame();
}, 1000);
connect();

// @ts-check
// The board's page: the board (/shared/board.js) as the game expects it and as the sensors see
// it, the OLED and MENU/BACK/OK, takeback and hints, a new game, settings, the stored games
// (replayed move by move), help; on the simulated board, clicks, taps and drags move its pieces.
// /watch is the same page for spectators: the board, the last move, the moves and the captures,
// nothing meant for the players. An ES module, no build step.
import { Board, capital, centreOf, contains, sideColour, sideShape, siteCentre, svgEl } from "../shared/board.js";
import { loadControls } from "../shared/controls.js";
import { choose, load, ngettext, seatName as seated, sideName, speech, t } from "../shared/i18n.js";

await load();  // the page's words in its language, before anything is shown
await loadControls();  // the time controls New game offers

const WATCH = location.pathname.replace(/\/+$/, "") === "/watch";
const TOKEN = new URLSearchParams(location.search).get("token");
const LOG_MAX = 500;
const DRAG_PX = 6;
// The longest wait between tries to reconnect: a board started again is back on its page within
// this (its players' clock may be running meanwhile).
const RETRY_MAX_MS = 2000;
// Touch targets of at least MIN_TARGET px: on a phone a board whose sites are smaller opens
// whole (every coordinate in view) and a first tap zooms in where it lands.
const MIN_TARGET = 24;
const ZOOM_STEP = 1.5;
// A button held this long is a long press, as on the board; a site held this long shows its
// name (and an edge point's other place).
const LONG_PRESS_MS = 1000;
const NAME_PRESS_MS = 500;

/** The page's element ``id`` (its own markup: any element). @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
/** The page's elements matching ``selector``. @type {(selector: string) => any[]} */
const all = (selector) => [...document.querySelectorAll(selector)];
const board = new Board($("board"));
const view = {
  get pieces() { return board.pieces; },
  sides: [],
  controls: false,
  simulated: true,   // false on real hardware: the pieces are real, not clicked
  games: [],
  choosePlayers: true, // who plays (a computer's seat) may be chosen from the page
  status: null,
  history: [],
  lights: {},
  leds: {},
  settings: null,
  clock: null,
  seats: { players: [], table: null, ready: null },
};
// What the page knows, and how it sends a command: for scripts driving the page (and the
// browser's console), e.g. send({type: "place", site: "B2*"}).
Object.assign(window, { view, send });
let socket = null;
let retry = 500;
let refused = false;   // the controls' socket was refused (no token): fall back to watching

// ------------------------------------------------------------------------------ connection
function connect() {
  const readOnly = WATCH || refused;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = !readOnly && TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "";
  const ws = new WebSocket(`${scheme}://${location.host}/ws${readOnly ? "/watch" : ""}${query}`);
  let opened = false;
  socket = ws;
  ws.onopen = () => { opened = true; retry = 500; setConn(t("live"), "live"); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = async () => {
    setConn(t("reconnecting…"), "down");
    // A socket that never opened was refused (no token), or the board is away (restarting).
    if (!opened && !readOnly && await controlsRefused()) {
      refused = true;
      notice(t("Read-only: the controls need the address with the token that reedboard run printed."));
      setTimeout(connect, 0);
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, RETRY_MAX_MS);
  };
}

// Whether the board refuses this page its controls (they need the token): its records, which
// need the same, are refused too. False while the board cannot be reached at all.
async function controlsRefused() {
  try {
    return (await fetch(withToken("/games.json"), { method: "HEAD" })).status === 403;
  } catch {
    return false;
  }
}

function send(message) {
  if (view.controls && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
  }
}

function setConn(text, state) {
  const conn = $("conn");
  conn.textContent = text;
  conn.dataset.state = state;
}

function receive(message) {
  if (message.type === "hello") {
    view.controls = message.controls;
    view.games = message.games;
    view.simulated = message.simulated !== false;
    view.choosePlayers = message.choose_players !== false; // not in kiosk mode, nor paired
    $("pick-players-label").hidden = !view.choosePlayers;
    for (const el of all(".control")) el.hidden = !view.controls;
    for (const el of all(".sim-only")) el.hidden ||= !view.simulated;
    document.body.classList.toggle("controls", view.controls);
    document.body.classList.toggle("hardware", !view.simulated);
    showFirstHint();
    showLink(message.address, message.qr);
    if (view.controls) fillPicker();
  } else if (message.type === "update") {
    update(message);
  } else if (message.type === "error") {
    notice(message.error);
  }
}

// The page's address for a phone, and its QR code (made by the board, an SVG).
function showLink(address, qr) {
  $("link").hidden = !address;
  if (!address) return;
  $("address").textContent = address.replace(/\?token=.*/, "");
  $("address").href = address;
  const local = /^http:\/\/(127\.|localhost|\[::1\])/.test(address);
  $("address-words").textContent = local
    ? t("This machine only (for phones: [web] host = \"0.0.0.0\"):") : t("On a phone:");
  $("qr").innerHTML = qr;
}

let noticeTimer = null;
function notice(text) {
  $("notice").textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { $("notice").textContent = ""; }, 6000);
}

const withToken = (path) => path + (TOKEN ? (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(TOKEN) : "");

// ------------------------------------------------------------------------------ updates
// What a new game (or the wizard) starts from where its first update does not say: nothing
// of the last game's (its pieces, lights, moves, losses, a move to make) outlives it.
const FRESH = { figures: [], plan: null, pieces: [], lights: {}, leds: {}, history: [], losses: null };

function update(u) {
  if (u.sites) {
    u = { ...FRESH, ...u };
    carried = null;
    $("board").classList.remove("carrying");
  }
  if (u.game) showGame(u.game);
  if (u.sites) {
    board.sides = view.sides;
    board.build(u.sites, u.drawing || { lines: [], kinds: {} });
    fitZoom();
  }
  if (u.figures) board.showFigures(u.figures);
  if ("plan" in u) board.showPlan(WATCH ? null : u.plan);
  if (u.pieces) board.showPieces(u.pieces);
  if (u.lights) view.lights = u.lights;
  if (u.leds) view.leds = u.leds;
  if (u.leds || u.lights) showLights();
  if (u.oled) $("oled").src = "data:image/png;base64," + u.oled;
  if (u.seats) showSeats(u.seats);
  if (u.status) showStatus(u.status);
  if ("clock" in u) showClocks(u.clock);
  else if (u.seats) showClocks(view.clock); // the same clocks under the players' new names
  if (u.history) showHistory(u.history);
  if ("losses" in u) showLosses(u.losses);
  if (u.settings) showSettings(u.settings);
  if ("noise" in u) $("noise").checked = u.noise;
  if (u.events) logEvents(u.events, Boolean(u.sites));
  if (u.events && !u.sites) sound(u.events);
}

// The lights as the board shows them; spectators see only the winning line (the rest asks
// something of the players).
function showLights() {
  let leds = view.leds;
  if (WATCH) leds = Object.fromEntries(Object.entries(leds).filter(([s]) => view.lights[s] === "win"));
  board.showLights(leds, view.lights);
}

function showGame(game) {
  $("title").textContent = game.title;
  $("variant").textContent = game.shown_variant || "";
  view.sides = game.sides;
  view.game = game;
  // The set-up wizard: no game to take back, hint, list, start or store while it runs.
  document.body.classList.toggle("setup", Boolean(game.setup));
  if (view.controls) fillPicker();
  document.title = `${game.title} · reedboard${WATCH ? " (watch)" : ""}`;
  $("download").href = withToken("/replay.jsonl");
  $("guide").href = `/guide/${game.name}`;
  $("guide").textContent = t("How to play {game}", { game: game.title });
  showRules();
}

// Who sits at each seat (the board's players; a league round's table and whose OK it waits
// for), and the Players control's names, one per side.
function showSeats(seats) {
  view.seats = seats;
  const table = $("table");
  table.hidden = !seats.table && !seats.ready;
  table.textContent = [seats.table, seats.ready].filter(Boolean).join(" · ");
  const box = $("seat-names");
  if (box.contains(document.activeElement)) return;
  box.replaceChildren(...view.sides.map((side, i) => {
    const label = document.createElement("label");
    label.textContent = `${capital(side)} `;
    const input = document.createElement("input");
    input.name = side;
    input.maxLength = 24;
    input.value = seats.players[i] || "";
    input.placeholder = `Player ${i + 1}`;
    label.append(input);
    return label;
  }));
  if (view.status) showStatus(view.status);
}

// The player at ``side``'s seat, else the side's own name.
const seatName = (side) => seated(view.seats.players, view.sides, side);

function setPlayers(e) {
  e.preventDefault();
  const names = all("#seat-names input").map((input) => input.value.trim());
  send({ type: "players", names: names.every((n) => n) ? names : [] });
}

function showStatus(status) {
  view.status = status;
  const turn = $("turn");
  turn.textContent = status.result ? status.result
    : status.to_move && !view.seats.ready ? t("{side} to move", { side: seatName(status.to_move) }) : "";
  turn.dataset.side = status.to_move || "";
  markSide(turn, status.to_move);
  const result = $("result");
  result.hidden = !status.result;
  result.textContent = status.result || "";
  $("oled").title = status.lines.join("\n");
  $("oled").alt = status.lines.join(" / ");
  document.body.dataset.over = status.result ? "yes" : "no";
  $("takeback").disabled = !status.moves;
  showFirstHint();
}

// The game clocks ([clock] in the config, or a new game's control): each seat's time (its
// player's name, else its side's), the running one marked (▶), a fallen flag (⚑), an
// arbiter's pause; none without a clock.
function showClocks(clock) {
  view.clock = clock;
  const clocks = $("clocks");
  clocks.hidden = !clock;
  clocks.classList.toggle("paused", Boolean(clock && clock.paused));
  clocks.title = clock ? `Time control ${clock.control}${clock.paused ? ": paused" : ""}` : "";
  clocks.replaceChildren(...Object.entries(clock ? clock.text : {}).map(([side, text]) => {
    const one = document.createElement("span");
    one.className = "clock";
    one.dataset.side = side;
    one.classList.toggle("running", side === clock.running);
    const mark = side === clock.flag ? "⚑ " : side === clock.running ? "▶ " : "";
    one.textContent = `${mark}${seatName(side)} ${text}`;
    return one;
  }));
}

// A first word for a newcomer on the simulated board, until the game's first move: what a
// click (a tap) on a site does. The rest is in the "Simulated board" panel.
function showFirstHint() {
  const hint = $("first-hint");
  hint.hidden = WATCH || Boolean(view.game && view.game.setup) || !view.controls || !view.simulated
    || !view.status || view.status.moves > 0;
  hint.textContent = matchMedia("(pointer: coarse), (max-width: 800px)").matches
    ? t("Tap a site to put a piece on it, again to lift it; drag a piece to move it.")
    : t("Click a site to put a piece on it, again to lift it; drag a piece to move it.");
  hint.title = t("More under Simulated board and Help");
  document.body.classList.toggle("newcomer", !hint.hidden);
}

// The game's story: the last move marked on the board and named, every move so far (a round
// of the sides' turns to a row), the pieces each side has lost.
function showHistory(history) {
  view.history = history;
  const last = history[history.length - 1];
  board.showLast(last || null);
  $("last").textContent = last ? t("Last: {side} {move}", { side: sideName(last.side), move: moveWords(last.move) })
    : t("No move yet");
  const list = $("moves");
  const per = Math.max(1, view.sides.length);
  list.style.setProperty("--per", String(per));
  const rows = [];
  for (let i = 0; i < history.length; i += per) {
    const li = document.createElement("li");
    for (const item of history.slice(i, i + per)) {
      const span = document.createElement("span");
      span.textContent = item.move;
      markSide(span, item.side);
      span.title = `${sideName(item.side)} ${moveWords(item.move)}`;
      li.append(span);
    }
    rows.push(li);
  }
  list.replaceChildren(...rows);
  list.scrollTop = list.scrollHeight;
  $("moves-count").textContent = history.length ? `(${history.length})` : "";
}

// A side named on the page: its colour and its shape, as its pieces carry them.
function markSide(node, side) {
  node.style.setProperty("--side", sideColour(side, view.sides));
  node.dataset.shape = sideShape(side, view.sides);
}

function showLosses(losses) {
  const box = $("losses");
  box.hidden = !losses;
  if (!losses) return;
  box.replaceChildren(...Object.entries(losses).map(([side, n]) => {
    const li = document.createElement("li");
    markSide(li, side);
    li.textContent = ngettext("{side} has lost {n} piece", "{side} has lost {n} pieces", n, { side: sideName(side) });
    return li;
  }));
}

// A move's name, with the other name of a point that has two places ("k9, also k20").
function moveWords(move) {
  const parts = board.sites.get(move);
  const twins = parts && parts.site.twins;
  return twins ? t("{move} (the point {move}, also {twins})", { move, twins: twins.join(", ") }) : move;
}

// The log in plain words ("12.3 s  White played B4*"); the raw JSON on demand (the "raw"
// switch), always in data-json. Display lines are the OLED's: shown raw only.
function logEvents(events, fresh) {
  const log = $("log");
  if (fresh) log.replaceChildren();
  for (const event of events) {
    if (event.event === "new_game") log.replaceChildren();  // each game's log starts afresh
    const item = document.createElement("li");
    item.dataset.json = JSON.stringify(event);
    item.dataset.event = event.event;
    item.dataset.words = words(event);
    item.textContent = $("raw").checked ? item.dataset.json : item.dataset.words;
    log.append(item);
  }
  while (log.childElementCount > LOG_MAX) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

// The daemon's events in plain words, each naming what happened ("White played B2*"); an
// event with no wording of its own lists its fields.
const list = (sites) => (sites && sites.length ? sites.join(" ") : t("none"));
const many = (sites) => (sites.length > 6
  ? t("{sites} and {n} more", { sites: sites.slice(0, 6).join(" "), n: sites.length - 6 }) : list(sites));
const GUIDED = { remove: t("take off"), twin: t("place the twin on"), flip: t("flip"), pick: t("tap one of"),
                 carry: t("carry the unseen piece from"), confirm: t("press OK") };
const WORDS = {
  move: (e) => t("{side} played {move}", { side: sideName(e.side), move: moveWords(e.move) }),
  correction: (e) => t("{side}'s {move} corrected to {other}", { side: sideName(e.side), move: e.replaces, other: e.move }),
  takeback: (e) => t("Took back {moves}", { moves: e.move }),
  new_game: (e) => t("New game: {game}", { game: e.game }) + (e.size ? " " + t("size {size}", { size: e.size }) : "")
    + (e.variant ? `, ${e.variant}` : ""),
  game_over: (e) => (e.winner ? t("{side} wins: {result}", { side: sideName(e.winner), result: t(e.result) })
    : t("Game over: {result}", { result: t(e.result) })),
  illegal: (e) => t("Refused: {reason} ({sites})", { reason: e.reason, sites: list(e.sites) }),
  waiting: (e) => t("Waiting: {reason}", { reason: t(e.reason) }),
  out_of_sync: (e) => t("Board differs from the game: ") + [
    e.missing && e.missing.length ? t("put back {sites}", { sites: list(e.missing) }) : "",
    e.extra && e.extra.length ? t("take off {sites}", { sites: list(e.extra) }) : ""].filter(Boolean).join("; "),
  in_sync: () => t("Board matches the game again"),
  targets: (e) => liftedWords(e.sites),
  guide: (e) => (e.action === "confirm" ? t("Press OK to end the turn")
    : t("Lit: {action} {sites}", { action: GUIDED[e.action] || e.action, sites: list(e.sites) })),
  expect: (e) => t("To carry out: {move}", { move: e.move })
    + (e.empty.length ? t(", take {sites} off", { sites: list(e.empty) }) : "")
    + (e.fill.length ? t(", put a piece on {sites}", { sites: list(e.fill) }) : ""),
  hint: (e) => t("Hint: {move}", { move: e.move }),
  say: (e) => t("Said: {text}", { text: e.text }),
  wake: () => t("Woke up"),
  attract: () => t("Idle: showing the attract screen"),
  power_off: () => t("Powered off"),
};

// A lifted piece's lit sites in words, as whose turn it is says: the side to move's piece can go
// there; the last move's piece, out of turn, can only correct that move; any other piece out of
// turn goes back.
function liftedWords(sites) {
  if (!sites.length) return t("Put down");
  const lifted = board.figures.filter((f) => f.sites.some((s) => !board.pieces.has(s)));
  const toMove = view.status && view.status.to_move;
  const other = lifted.find((f) => toMove && f.side !== toMove);
  const n = ngettext("{n} lit site", "{n} lit sites", sites.length);
  if (!other) return t("Lifted: it can go to {n} ({sites})", { n, sites: many(sites) });
  const last = view.history[view.history.length - 1];
  if (last && last.side === other.side && other.sites.some((s) => last.to.includes(s))) {
    return t("Lifted {side}'s last moved piece out of turn: to correct that move, {n} ({sites})",
      { side: sideName(other.side), n, sites: many(sites) });
  }
  return t("Lifted {side}'s piece out of turn: put it back", { side: sideName(other.side) });
}

function words(event) {
  const { t: at, event: kind, ...rest } = event;
  const say = WORDS[kind];
  if (say) return `${(at / 1000).toFixed(1)} s  ${say(event)}`;
  const parts = [];
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || value === undefined || key === "lines") continue;
    const shown = Array.isArray(value) ? value.join(" ")
      : typeof value === "object" ? JSON.stringify(value) : String(value);
    parts.push(key === "move" || key === "reason" ? shown : `${key.replace(/_/g, " ")} ${shown}`);
  }
  const lines = kind === "display" ? (event.lines || []).join(" / ") : "";
  return `${(at / 1000).toFixed(1)} s  ${kind.replace(/_/g, " ")}${parts.length ? ": " : " "}` +
    parts.join(", ") + lines;
}

function showRaw() {
  const raw = $("raw").checked;
  for (const item of $("log").children) item.textContent = raw ? item.dataset.json : item.dataset.words;
  $("log").classList.toggle("raw", raw);
}

// ------------------------------------------------------------------------------ zoom
let zoom = 1;

function setZoom(value, at = null) {
  zoom = Math.min(Math.max(value, 1), 8);
  const [svg, wrap] = [$("board"), $("board-wrap")];
  svg.style.width = svg.style.height = "";
  wrap.classList.toggle("zoomed", zoom > 1);
  $("zoom-out").disabled = zoom <= 1;
  if (zoom <= 1) {
    board.layout();
    // Zoom is offered where the sites are small (it would cover a corner's coordinates else).
    $("zoom").hidden = smallestTarget() >= MIN_TARGET * 1.25;
    return;
  }
  $("zoom").hidden = false;
  const box = svg.viewBox.baseVal;  // zoomed: the board's own shape, larger, in the wrap
  const scale = Math.min(svg.clientWidth / box.width, svg.clientHeight / box.height) * zoom;
  svg.style.width = `${box.width * scale}px`;
  svg.style.height = `${box.height * scale}px`;
  const [fx, fy] = at || [0.5, 0.5];
  wrap.scrollLeft = fx * wrap.scrollWidth - wrap.clientWidth / 2;
  wrap.scrollTop = fy * wrap.scrollHeight - wrap.clientHeight / 2;
}

// The smallest side of a site's box, in screen px.
function smallestTarget() {
  const sizes = [...board.sites.values()].map((p) => {
    const r = p.hit.getBoundingClientRect();
    return Math.min(r.width, r.height);
  }).filter((v) => v > 0);
  return sizes.length ? Math.min(...sizes) : MIN_TARGET;
}

// Every board opens whole, fitted to its frame with every coordinate in view.
function fitZoom() {
  setZoom(1);
}

// On a touch screen a board whose sites are smaller than MIN_TARGET px takes a first tap as
// "zoom in here" (to where every site is MIN_TARGET px), not as a move.
function tapZooms() {
  return zoom <= 1 && !WATCH && matchMedia("(pointer: coarse), (max-width: 800px)").matches
    && smallestTarget() < MIN_TARGET;
}

// ------------------------------------------------------------------------------ input
/**
 * A press on a site, until released.
 * @type {{site: string, x: number, y: number, dragging: boolean, timer?: number, group?: string[],
 *         named?: boolean} | null}
 */
let press = null;
let carried = null; // a piece over several sites lifted by a tap: {sites, from}

function siteAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const node = /** @type {SVGElement | null} */ (hit && hit.closest("[data-site]"));
  return node ? node.dataset.site : null;
}

function boardPoint(e) {
  const svg = $("board");
  const p = svg.createSVGPoint();
  p.x = e.clientX;
  p.y = e.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(e) {
  if (e.button !== 0) return;
  const node = e.target.closest("[data-site]");
  if (!node) return;
  const site = node.dataset.site;
  press = { site, x: e.clientX, y: e.clientY, dragging: false };
  press.timer = setTimeout(() => nameSite(site), NAME_PRESS_MS);  // a long press names it
  if (!view.controls || !view.simulated) return;
  e.preventDefault();
}

// A site's name, and the other place of a point that has two, for a while.
function nameSite(label) {
  const parts = board.sites.get(label);
  if (!parts) return;
  const twins = board.highlightTwins(label, true);
  const site = parts.site;
  $("board-note").hidden = false;
  $("board-note").textContent = site.point && twins.length
    ? t("{twins}: one point, {point} (either place holds its stone)", { twins: twins.join(t(" and ")), point: site.point })
    : label;
  setTimeout(() => { board.highlightTwins(label, false); $("board-note").hidden = true; }, 2500);
  if (press) press.named = true;
}

function onPointerMove(e) {
  if (!press || !view.controls || !view.simulated) return;
  if (!press.dragging) {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_PX) return;
    clearTimeout(press.timer);
    if (!board.pieces.has(press.site) || carried) { press = null; return; }
    press.dragging = true;
    press.group = board.pieceSites(press.site);
    document.body.classList.add("dragging");
    // Without noise the piece leaves the board at once, so its targets light while it moves
    // (a piece over several sites leaves them all, as a hand lifts it).
    if (!$("noise").checked || press.group.length > 1) {
      for (const label of press.group) send({ type: "lift", site: label });
    }
  }
  const p = boardPoint(e);
  ghost().setAttribute("cx", p.x);
  ghost().setAttribute("cy", p.y);
  ghost().setAttribute("visibility", "visible");
}

function ghost() {
  let node = $("board").querySelector(".ghost");
  if (!node) node = svgEl("circle", { r: board.spacing * 0.28, class: "ghost", visibility: "hidden" }, $("board"));
  return node;
}

function onPointerUp(e) {
  if (!press) return;
  const { site, dragging, group, named, timer, x, y } = press;
  clearTimeout(timer);
  press = null;
  if (named && !dragging) return;
  if (!dragging && tapZooms()) {   // a small board on a phone: the tap zooms in where it lands
    const r = $("board").getBoundingClientRect();
    setZoom((MIN_TARGET / smallestTarget()) * 1.05, [(x - r.left) / r.width, (y - r.top) / r.height]);
    notice(t("Zoomed in: tap a site. − shows the whole board."));
    return;
  }
  if (!view.controls || !view.simulated) {
    if (view.controls && !dragging) notice(t("This is a real board: move its pieces by hand."));
    return;
  }
  if (!dragging) return tap(site);
  ghost().setAttribute("visibility", "hidden");
  document.body.classList.remove("dragging");
  const target = siteAt(e.clientX, e.clientY);
  if (group.length > 1) {   // put the whole piece down where the pressed site landed
    const moved = target ? landed(group, site, target) || shifted(group, site, target) : null;
    for (const label of moved || group) send({ type: "place", site: label });
    return;
  }
  if ($("noise").checked) {
    if (target && target !== site) send({ type: "drag", from: site, to: target });
  } else if (target) {
    send({ type: "place", site: target });
  }
}

// A tap: a piece over several sites is lifted whole (then a tap on its destination puts it
// down there, whole; a tap on it again puts it back); any other site is toggled.
function tap(site) {
  if (carried) {
    const { sites, from } = carried;
    carried = null;
    $("board").classList.remove("carrying");
    const back = sites.includes(site);
    if (back) notice(t("Put back where it was: a tap."));
    const moved = back ? sites : landed(sites, from, site) || shifted(sites, from, site);
    if (!moved) {
      notice(t("The piece does not fit at {site}: it is back where it was.", { site }));
      sites.forEach((label) => send({ type: "place", site: label }));
      return;
    }
    for (const label of moved) send({ type: "place", site: label });
    return;
  }
  const group = board.pieces.has(site) ? board.pieceSites(site) : [site];
  if (group.length > 1) {
    carried = { sites: group, from: site };
    $("board").classList.add("carrying");
    for (const label of group) send({ type: "lift", site: label });
    notice(t("Lifted: tap where it goes, or on it again to put it back."));
    return;
  }
  send({ type: "toggle", site });
}

// ``group`` moved as ``from`` moved to ``to``: each site shifted by the same offset, to the
// nearest site there, when every shifted place has a site of its own; else null.
function shifted(group, from, to) {
  const a = board.sites.get(from).site, b = board.sites.get(to).site;
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const out = [to];
  for (const label of group) {
    if (label === from) continue;
    const s = board.sites.get(label).site;
    let found = null, best = board.spacing * 0.6;
    for (const [other, parts] of board.sites) {
      const d = Math.hypot(parts.site.x - s.x - dx, parts.site.y - s.y - dy);
      if (d < best && !out.includes(other)) { best = d; found = other; }
    }
    if (!found) return null;
    out.push(found);
  }
  return out;
}

// ``group`` carried, as a hand carries it, by the offset between the cells (sites sharing a
// label's core, "d4" of "d4nw") of ``from`` and ``to``: the sites it then covers more than half
// of, when they are as many as its own; else null.
function landed(group, from, to) {
  const [a, b] = [cellCentre(from), cellCentre(to)];
  if (!a || !b) return null;
  const carry = ([x, y]) => [x + b[0] - a[0], y + b[1] - a[1]];
  const moved = group.map((label) => board.sites.get(label).site.shape.map(carry));
  if (moved.some((poly) => poly.length < 3)) return null;
  const out = [];
  for (const [label, parts] of board.sites) {
    const poly = parts.site.shape;
    if (poly.length < 3) continue;
    const c = centreOf(poly);
    /** @type {[number, number][]} */
    const probes = [c, ...poly.map(([x, y]) => /** @type {[number, number]} */ ([x + (c[0] - x) * 0.3, y + (c[1] - y) * 0.3]))];
    const inside = probes.filter((q) => moved.some((m) => contains(m, q))).length;
    if (inside * 2 > probes.length) out.push(label);
  }
  return out.length === group.length ? out : null;
}

// The centre of the cell of ``label``: the mean of its sites' centres (null: no cell).
function cellCentre(label) {
  const core = (l) => (/^[A-Za-z]+\d+/.exec(l) || [null])[0];
  const cell = core(label);
  if (!cell) return null;
  const pts = [...board.sites.values()].filter((p) => core(p.site.label) === cell)
    .map((p) => siteCentre(p.site));
  return centreOf(pts);
}

// The board's keys work whatever has focus (caught before the focused control sees them), so
// Enter never re-submits the game picker; Space on a focused MENU/BACK/OK button presses it.
function onKey(e) {
  if (!view.controls || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.matches && e.target.matches("input[type=number]")) return;  // typing a number
  let button = { Enter: "ok", Backspace: "back", Escape: "back", m: "menu", M: "menu" }[e.key];
  const focused = e.target.closest && e.target.closest("[data-button]");
  if (e.key === " " && focused) button = focused.dataset.button;
  if (!button || $("viewer").open) return;
  e.preventDefault();
  e.stopPropagation();
  pressButton(button, e.shiftKey);  // Shift: a long press (Shift+M offers power-off)
}

function holdable(node) {
  let timer = null;
  node.addEventListener("pointerdown", () => {
    timer = setTimeout(() => { timer = null; pressButton(node.dataset.button, true); },
                       LONG_PRESS_MS);
  });
  const release = () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    pressButton(node.dataset.button, false);
  };
  node.addEventListener("pointerup", () => { node.blur(); release(); });
  node.addEventListener("pointerleave", () => { if (timer !== null) { clearTimeout(timer); timer = null; } });
}

function pressButton(button, long = false) {
  send(long ? { type: "button", button, long } : { type: "button", button });
  const node = document.querySelector(`[data-button="${button}"]`);
  node.classList.add("pressed");
  setTimeout(() => node.classList.remove("pressed"), 150);
}

// ------------------------------------------------------------------------------ new game
function fillPicker() {
  const game = $("pick-game");
  game.replaceChildren(...view.games.map((g) => new Option(g.title, g.name)));
  if (!view.game) return fillOptions();
  game.value = view.game.name;
  fillOptions();
  if (view.game.size) $("pick-size").value = view.game.size;
  $("pick-variant").value = view.game.variant;
  $("pick-players").value = view.game.computer || "";
  if (view.game.level) $("pick-level").value = view.game.level;
  $("pick-level-label").hidden = !view.choosePlayers || !view.game.computer;
}

function fillOptions() {
  const info = view.games.find((g) => g.name === $("pick-game").value);
  const sizes = new Set(info.sizes);
  if (info.size_range) {
    for (let n = info.size_range[0]; n <= info.size_range[1]; n++) sizes.add(n);
  }
  const size = $("pick-size");
  size.replaceChildren(...[...sizes].sort((a, b) => a - b).map((n) => new Option(n, n)));
  if (info.default_size) size.value = info.default_size;
  $("pick-size-label").hidden = sizes.size === 0;
  const variant = $("pick-variant");
  variant.replaceChildren(...info.variants.map((v) => new Option(v, v)));
  variant.value = info.default_variant;
  $("pick-variant-label").hidden = info.variants.length < 2;
  showRules();
}

function newGame(e) {
  e.preventDefault();
  if (e.submitter) e.submitter.blur();
  const playing = view.status && !view.status.result && view.status.moves > 0;
  if (playing && !confirm(t("Abandon the game in progress and start a new one?"))) return;
  const sizeHidden = $("pick-size-label").hidden;
  send({
    type: "new_game",
    game: $("pick-game").value,
    size: sizeHidden ? null : Number($("pick-size").value),
    variant: $("pick-variant").value,
    ...(view.choosePlayers ? { computer: $("pick-players").value || null, level: Number($("pick-level").value) } : {}),
    ...($("pick-clock").value ? { control: $("pick-clock").value } : {}),
  });
}

// ------------------------------------------------------------------------------ settings
const BRIGHTNESS = [0.1, 0.25, 0.5, 0.75, 1];

function showSettings(settings) {
  view.settings = settings;
  const select = $("brightness");
  if (!select.options.length) {
    select.replaceChildren(...BRIGHTNESS.map((v) => new Option(`${Math.round(v * 100)} %`, String(v))));
  }
  const nearest = BRIGHTNESS.reduce((a, b) => (Math.abs(b - settings.brightness) < Math.abs(a - settings.brightness) ? b : a));
  if (document.activeElement !== select) select.value = nearest;
  $("takeback").hidden = !settings.takebacks;
  $("hint").hidden = !settings.hints;
  showRules();
}

// The house rules of the game chosen in the New game panel (they hold from its next new game).
function showRules() {
  const box = $("rules");
  const name = $("pick-game").value || (view.game && view.game.name);
  const info = view.games.find((g) => g.name === name);
  if (!info || !view.settings) return;
  const given = view.settings.rules[name] || {};
  const rows = info.options.map((o) => {
    const label = document.createElement("label");
    label.textContent = `${o.name} `;
    label.title = o.help;
    const value = given[o.name] ?? o.default;
    let input;
    if (typeof o.default === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(value);
    } else if (o.choices.length) {
      input = document.createElement("select");
      input.replaceChildren(...o.choices.map((c) => new Option(c, c)));
      input.value = value;
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.min = o.low;
      input.value = value ?? "";
      input.placeholder = o.default_text;
    }
    input.addEventListener("change", () => {
      const v = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value;
      send({ type: "rules", game: name, name: o.name, value: v });
      notice(t("{rule}: {value} from the next new game of {game}", { rule: o.name, value: v, game: info.title }));
    });
    label.append(input);
    return label;
  });
  $("rules-game").textContent = info.title;
  box.replaceChildren(...rows);
  $("rules-none").hidden = rows.length > 0;
}

// ------------------------------------------------------------------------------ stored games
async function loadGames() {
  const list = $("stored-list");
  list.replaceChildren();
  $("stored-all").href = withToken("/games.txt");
  let games;
  try {
    const reply = await fetch(withToken("/games.json"));
    if (!reply.ok) throw new Error((await reply.text()).trim());
    games = await reply.json();
  } catch (err) {
    $("stored-none").hidden = false;
    $("stored-none").textContent = `The stored games cannot be read: ${err.message}`;
    return;
  }
  $("stored-none").hidden = games.length > 0;
  $("stored-none").textContent = "No games stored yet.";
  for (const g of games) {
    const li = document.createElement("li");
    const when = (g.started || "").replace("T", " ").slice(0, 16);
    const what = document.createElement("span");
    const moves = ngettext("{n} move", "{n} moves", g.moves);
    what.textContent = `${g.title} · ${when} · ${moves} · ${g.result || ""}`;
    const replay = document.createElement("button");
    replay.type = "button";
    replay.textContent = t("Replay");
    replay.setAttribute("aria-label", t("Replay game {id}", { id: g.id }));
    replay.addEventListener("click", () => openReplay(g.id));
    const record = document.createElement("a");
    record.href = withToken(`/games/${g.id}.txt`);
    record.download = `game-${g.id}.txt`;
    record.textContent = t("Record");
    record.setAttribute("aria-label", t("Download the record of game {id}", { id: g.id }));
    li.append(what, replay, record);
    list.append(li);
  }
}

const replayView = { board: null, game: null, at: 0 };

async function openReplay(id) {
  const reply = await fetch(withToken(`/games/${id}.json`));
  if (!reply.ok) return notice((await reply.text()).trim());
  const game = await reply.json();
  const dialog = $("viewer");
  dialog.showModal();
  replayView.game = game;
  replayView.board = replayView.board || new Board($("viewer-board"));
  replayView.board.sides = game.sides;
  replayView.board.build(game.sites, game.drawing);
  $("viewer-title").textContent = `Game ${game.id}: ${game.title} · ${game.result || "running"}`;
  $("viewer-step").max = game.positions.length - 1;
  showPosition(game.positions.length - 1);
}

function showPosition(at) {
  const game = replayView.game;
  at = Math.max(0, Math.min(at, game.positions.length - 1));
  replayView.at = at;
  const position = game.positions[at];
  const b = replayView.board;
  b.layout();
  b.showFigures(position.figures);
  b.showPieces(position.figures.flatMap((f) => f.sites));
  b.showLast(at ? position : null);
  $("viewer-step").value = at;
  $("viewer-move").textContent = at
    ? t("Move {n} of {count}: {side} {move}", { n: at, count: game.positions.length - 1, side: sideName(position.side), move: position.move })
    : ngettext("The start ({count} move)", "The start ({count} moves)", game.positions.length - 1, { count: game.positions.length - 1 });
}

// ------------------------------------------------------------------------------ sound
// For a player who plays by ear: the board's say events spoken by the browser's voice, and its
// cues played with WebAudio (the notes the board's buzzer plays: hardware/sound.py), each when
// the player turns it on (kept in this browser). A sentence that arrives while one is spoken
// waits, and a newer one replaces it: speech never lags the game.
/** @type {Record<string, number[][]>} [frequency Hz (0: a rest), ms] */
const CUES = {
  move: [[880, 60]],
  refused: [[220, 120], [0, 60], [220, 120]],
  turn: [[660, 60], [0, 40], [880, 60]],
  opponent: [[880, 60], [0, 40], [660, 60], [0, 40], [880, 60]],
  follow_up: [[990, 50], [0, 50], [990, 50]],
  over: [[523, 150], [659, 150], [784, 300]],
};
const CUE_ORDER = ["over", "refused", "opponent", "follow_up", "turn", "move"];
const EVENT_CUES = { illegal: "refused", guide: "follow_up", expect: "opponent", game_over: "over" };
const heard = { said: /** @type {string[]} */ ([]), cues: /** @type {string[]} */ ([]), next: "", opponent: false };
Object.assign(view, { heard });
/** @type {AudioContext | null} */
let audio = null;

function sound(events) {
  const said = events.filter((e) => e.event === "say").map((e) => e.text);
  if (said.length && $("speak").checked) speak(said.join(". "));
  const cues = new Set();
  for (const e of events) {
    if (e.event === "move") cues.add(heard.opponent ? "turn" : "move");
    if (e.event === "move") heard.opponent = false;
    if (e.event === "expect") heard.opponent = true;
    if (EVENT_CUES[e.event]) cues.add(EVENT_CUES[e.event]);
  }
  const cue = CUE_ORDER.find((c) => cues.has(c));
  if (cue && $("cues").checked) playCue(cue);
}

function speak(text) {
  if (!("speechSynthesis" in window)) return;
  if (speechSynthesis.speaking) {
    heard.next = text;
    return;
  }
  heard.said.push(text);
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.onend = utterance.onerror = () => {
    const next = heard.next;
    heard.next = "";
    if (next) speak(next);
  };
  speechSynthesis.speak(utterance);
}

function playCue(name) {
  audio = audio || new AudioContext();
  heard.cues.push(name);
  let at = audio.currentTime;
  for (const [frequency, ms] of CUES[name]) {
    if (frequency) {
      const tone = audio.createOscillator(), level = audio.createGain();
      tone.type = "square";
      tone.frequency.value = frequency;
      level.gain.value = 0.08;
      tone.connect(level).connect(audio.destination);
      tone.start(at);
      tone.stop(at + ms / 1000);
    }
    at += ms / 1000;
  }
}

function soundSwitches() {
  for (const id of ["speak", "cues"]) {
    const box = $(id);
    box.checked = localStorage.getItem(`reedboard-${id}`) === "on";
    box.addEventListener("change", () => {
      localStorage.setItem(`reedboard-${id}`, box.checked ? "on" : "off");
      if (id === "cues" && box.checked) playCue("move");   // a gesture lets the page sound
    });
  }
}

// ------------------------------------------------------------------------------ start
function start() {
  document.body.classList.toggle("watch", WATCH);
  const svg = $("board");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointerover", (e) => {
    const node = e.target.closest("[data-site]");
    if (node) board.highlightTwins(node.dataset.site, true);
  });
  svg.addEventListener("pointerout", (e) => {
    const node = e.target.closest("[data-site]");
    if (node) board.highlightTwins(node.dataset.site, false);
  });
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("keydown", onKey, true);
  $("raw").addEventListener("change", showRaw);
  soundSwitches();
  for (const node of document.querySelectorAll("[data-button]")) holdable(node);
  $("pick-game").addEventListener("change", fillOptions);
  $("pick-players").addEventListener("change", (e) => {
    $("pick-level-label").hidden = !e.target.value;
  });
  $("picker").addEventListener("submit", newGame);
  $("players-form").addEventListener("submit", setPlayers);
  $("players-clear").addEventListener("click", () => send({ type: "players", names: [] }));
  $("noise").addEventListener("change", (e) => send({ type: "noise", on: e.target.checked }));
  $("set-up").addEventListener("click", () => send({ type: "setup", board: "expected" }));
  $("clear").addEventListener("click", () => send({ type: "setup", board: "empty" }));
  $("takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("hint").addEventListener("click", () => pressButton("ok", true));
  $("brightness").addEventListener("change", (e) => send({ type: "brightness", level: Number(e.target.value) }));
  $("stored").addEventListener("toggle", (e) => { if (e.target.open) loadGames(); });
  $("viewer-close").addEventListener("click", () => $("viewer").close());
  $("viewer-first").addEventListener("click", () => showPosition(0));
  $("viewer-back").addEventListener("click", () => showPosition(replayView.at - 1));
  $("viewer-next").addEventListener("click", () => showPosition(replayView.at + 1));
  $("viewer-last").addEventListener("click", () => showPosition(Infinity));
  $("viewer-step").addEventListener("input", (e) => showPosition(Number(e.target.value)));
  $("viewer").addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") showPosition(replayView.at - 1);
    if (e.key === "ArrowRight") showPosition(replayView.at + 1);
  });
  // A phone's address bar showing or hiding changes only the height: the zoom chosen stays.
  let width = innerWidth;
  window.addEventListener("resize", () => {
    const r = $("board").getBoundingClientRect();
    if (board.source && board.stacked !== r.height > r.width * 1.2) {
      board.build(...board.source);   // turned: the parts side by side, or one above the other
      showLights();
    }
    if (innerWidth !== width) fitZoom(); else if (zoom <= 1) board.layout();
    width = innerWidth;
  });
  $("zoom-in").addEventListener("click", () => setZoom(zoom * ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => setZoom(zoom / ZOOM_STEP));
  $("language").replaceChildren(...Object.entries(speech.languages).map(([code, name]) => new Option(name, code)));
  $("language").value = speech.language;
  $("language").addEventListener("change", (e) => choose(e.target.value));
  connect();
}

start();

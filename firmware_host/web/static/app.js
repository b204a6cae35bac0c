// The simulated board: draws the board from the engine's sites, shows what the daemon drives
// (pieces the sensors see, LEDs, the OLED image) and sends clicks, drags and buttons back.
// /watch is the same page, read-only. Plain JS, no build step.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const WATCH = location.pathname.replace(/\/+$/, "") === "/watch";
const TOKEN = new URLSearchParams(location.search).get("token");
const LOG_MAX = 500;
const DRAG_PX = 6;
// Kinds that are no colour name (e.g. Anti-Grid's shared points): light, neutral first.
const KIND_PALETTE = ["#e8e8e8", "#d9a441", "#7bc47f", "#b48ade"];
// Figure kinds drawn as round pieces (or rods, on segments); any other kind is drawn as the
// outline of the sites it covers.
const ROUND = ["stone", "token", "pawn", "trirod"];
const PALETTE = ["#d9a441", "#5aa9e6", "#e36464", "#7bc47f", "#b48ade", "#e0e0e0"];

const $ = (id) => document.getElementById(id);
const view = {
  sites: new Map(),      // label -> {site, led, piece}
  pieces: new Set(),
  leds: {},
  sides: [],
  figures: [],
  spacing: 1,
  controls: false,
  simulated: true,   // false on real hardware: the pieces are real, not clicked
  games: [],
};
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
  ws.onopen = () => { opened = true; retry = 500; setConn("live", "live"); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    if (!opened && !readOnly) {
      refused = true;
      notice("Read-only: the controls need the address with the token that reedboard run printed.");
    }
    setConn("reconnecting…", "down");
    setTimeout(connect, opened || readOnly ? retry : 0);
    retry = Math.min(retry * 2, 8000);
  };
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
    for (const el of document.querySelectorAll(".control")) el.hidden = !view.controls;
    for (const el of document.querySelectorAll(".sim-only")) el.hidden ||= !view.simulated;
    document.body.classList.toggle("controls", view.controls);
    document.body.classList.toggle("hardware", !view.simulated);
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
    ? "This machine only (for phones: [web] host = \"0.0.0.0\"):" : "On a phone:";
  $("qr").innerHTML = qr;
}

let noticeTimer = null;
function notice(text) {
  $("notice").textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { $("notice").textContent = ""; }, 6000);
}

// ------------------------------------------------------------------------------ updates
function update(u) {
  if (u.game) showGame(u.game);
  if (u.sites) {
    buildBoard(u.sites, u.drawing || { lines: [], kinds: {} });
    fitZoom();
  }
  if (u.figures) { view.figures = u.figures; drawFigures(); }
  if (u.pieces) showPieces(u.pieces);
  if (u.leds) showLeds(u.leds);
  if (u.oled) $("oled").src = "data:image/png;base64," + u.oled;
  if (u.status) showStatus(u.status);
  if ("noise" in u) $("noise").checked = u.noise;
  if (u.events) logEvents(u.events, Boolean(u.sites));
}

function showGame(game) {
  $("title").textContent = game.title;
  $("variant").textContent = game.shown_variant || "";
  view.sides = game.sides;
  view.game = game;
  if (view.controls) fillPicker();
  document.title = `${game.title} · reedboard${WATCH ? " (watch)" : ""}`;
  const link = $("download");
  link.href = "/replay.jsonl" + (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
}

function showStatus(status) {
  view.status = status;
  const turn = $("turn");
  turn.textContent = status.result ? status.result
    : status.to_move ? `${capital(status.to_move)} to move` : "";
  turn.dataset.side = status.to_move || "";
  turn.style.setProperty("--side", sideColour(status.to_move));
  const result = $("result");
  result.hidden = !status.result;
  result.textContent = status.result || "";
  $("oled").title = status.lines.join("\n");
  $("oled").alt = status.lines.join(" / ");
  document.body.dataset.over = status.result ? "yes" : "no";
}

// The log in plain words ("12.3 s  move B4*"); the raw JSON on demand (the "raw" switch),
// always in data-json. Display lines are the OLED's: shown raw only.
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
const list = (sites) => (sites && sites.length ? sites.join(" ") : "none");
const WORDS = {
  move: (e) => `${capital(e.side)} played ${e.move}`,
  correction: (e) => `${capital(e.side)}'s ${e.replaces} corrected to ${e.move}`,
  takeback: (e) => `Took back ${e.move}`,
  new_game: (e) => `New game: ${e.game}${e.size ? ` size ${e.size}` : ""}${e.variant ? `, ${e.variant}` : ""}`,
  game_over: (e) => (e.winner ? `${capital(e.winner)} wins: ${e.result}` : `Game over: ${e.result}`),
  illegal: (e) => `Refused: ${e.reason} (${list(e.sites)})`,
  waiting: (e) => `Waiting: ${e.reason}`,
  out_of_sync: (e) => "Board differs from the game: " + [
    e.missing && e.missing.length ? `put back ${list(e.missing)}` : "",
    e.extra && e.extra.length ? `take off ${list(e.extra)}` : ""].filter(Boolean).join("; "),
  in_sync: () => "Board matches the game again",
  targets: (e) => `The lifted piece can go to ${list(e.sites)}`,
  guide: (e) => `Lit to ${e.action}: ${list(e.sites)}`,
  expect: (e) => `Carry out ${e.move}: empty ${list(e.empty)}; fill ${list(e.fill)}`,
  hint: (e) => `Hint: ${e.move}`,
  wake: () => "Woke up",
  attract: () => "Idle: showing the attract screen",
  power_off: () => "Powered off",
};

function words(event) {
  const { t, event: kind, ...rest } = event;
  const say = WORDS[kind];
  if (say) return `${(t / 1000).toFixed(1)} s  ${say(event)}`;
  const parts = [];
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || value === undefined || key === "lines") continue;
    const shown = Array.isArray(value) ? value.join(" ")
      : typeof value === "object" ? JSON.stringify(value) : String(value);
    parts.push(key === "move" || key === "reason" ? shown : `${key.replace(/_/g, " ")} ${shown}`);
  }
  const lines = kind === "display" ? (event.lines || []).join(" / ") : "";
  return `${(t / 1000).toFixed(1)} s  ${kind.replace(/_/g, " ")}${parts.length ? ": " : " "}` +
    parts.join(", ") + lines;
}

function showRaw() {
  const raw = $("raw").checked;
  for (const item of $("log").children) item.textContent = raw ? item.dataset.json : item.dataset.words;
  $("log").classList.toggle("raw", raw);
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function sideColour(name) {
  if (!name) return "transparent";
  if (CSS.supports("color", name)) return name;
  const i = view.sides.indexOf(name);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
}

// ------------------------------------------------------------------------------ drawing
function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

const pt = ([x, y]) => `${x},${-y}`;   // engines have y upwards, SVG downwards

function buildBoard(sites, drawing) {
  const svg = $("board");
  svg.replaceChildren();
  view.sites.clear();
  view.pieces = new Set();
  const spacing = typicalSpacing(sites);
  const points = sites.flatMap((s) => (s.shape.length ? s.shape : [[s.x, s.y]]));
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => -p[1]);
  const unit = labelUnit(sites, spacing, Math.max(...xs) - Math.min(...xs));
  const margin = Math.max(spacing * 0.6, unit * 0.45);
  const [x0, y0] = [Math.min(...xs) - margin, Math.min(...ys) - margin];
  const [w, h] = [Math.max(...xs) - x0 + margin, Math.max(...ys) - y0 + margin];
  svg.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
  svg.style.setProperty("--unit", `${spacing}px`);  // a length: Firefox wants one in calc()
  el("rect", { x: x0, y: y0, width: w, height: h, rx: spacing * 0.3, class: "table" }, svg);
  const layers = {};
  view.spacing = spacing;
  for (const name of ["cells", "lines", "coords", "leds", "figures", "pieces", "hits"]) {
    layers[name] = el("g", { class: name }, svg);
  }
  const kinds = kindColours(drawing);
  for (const line of drawing.lines) {
    el("polyline", { points: line.points.map(pt).join(" "), class: "guide",
                     stroke: kinds.get(line.kind) }, layers.lines);
  }
  const squares = new Set();
  for (const site of sites) {
    const draw = site.shape.length >= 3 ? drawCell : site.shape.length === 2 ? drawSegment : drawDot;
    const parts = draw(site, layers, spacing, squares);
    const kind = drawing.kinds[site.label];
    if (kind !== undefined && parts.cell) {
      parts.cell.classList.add("kind");
      parts.cell.style.stroke = kinds.get(kind);
    }
    parts.hit.dataset.site = site.label;
    parts.hit.setAttribute("role", "button");
    parts.hit.setAttribute("aria-label", site.label);
    parts.site = site;
    view.sites.set(site.label, parts);
  }
  view.layers = layers;
  drawCoordinates(sites, layers.coords, spacing, unit, [x0, y0, w, h]);
  ghost = el("circle", { r: spacing * 0.28, class: "ghost", visibility: "hidden" }, svg);
}

// ------------------------------------------------------------------------------ zoom
// Touch targets of at least MIN_TARGET px: on a phone where the smallest site is smaller, the
// board starts enlarged (the wrap scrolls); + and - change the zoom by ZOOM_STEP anywhere.
const MIN_TARGET = 24;
const ZOOM_STEP = 1.5;
let zoom = 1;

function setZoom(value) {
  zoom = Math.min(Math.max(value, 1), 8);
  const [svg, wrap] = [$("board"), $("board-wrap")];
  svg.style.width = svg.style.height = "";
  wrap.classList.toggle("zoomed", zoom > 1);
  $("zoom-out").disabled = zoom <= 1;
  if (zoom <= 1) return;
  const box = svg.viewBox.baseVal;  // zoomed: the board's own shape, larger, centred in the wrap
  const scale = Math.min(svg.clientWidth / box.width, svg.clientHeight / box.height) * zoom;
  svg.style.width = `${box.width * scale}px`;
  svg.style.height = `${box.height * scale}px`;
  wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
  wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
}

// The smallest side of a site's box, in screen px, at zoom 1.
function smallestTarget() {
  const sizes = [...view.sites.values()].map((p) => {
    const r = p.hit.getBoundingClientRect();
    return Math.min(r.width, r.height);
  }).filter((v) => v > 0);
  return sizes.length ? Math.min(...sizes) : MIN_TARGET;
}

// On a touch screen or a phone-sized window where the board is played (not /watch), the
// zoom at which every site is at least MIN_TARGET px; else 1 (the whole board).
function fitZoom() {
  setZoom(1);
  if (WATCH || !matchMedia("(pointer: coarse), (max-width: 800px)").matches) return;
  const smallest = smallestTarget();
  if (smallest < MIN_TARGET) setZoom((MIN_TARGET / smallest) * 1.05);
}

// A site label's coordinates: its letters and its number ("B4*" -> B, 4; "c1se" -> c, 1).
const COORDINATES = /([A-Za-z]+)(\d+)/;

// The size coordinates are drawn to: the sites' spacing, or where each square holds several
// sites (Phalanx's triangles, Antipalos's two ends of a square) the width of a column, up to
// three spacings.
function labelUnit(sites, spacing, width) {
  const squares = new Set(), columns = new Set();
  for (const site of sites) {
    const m = COORDINATES.exec(site.label);
    if (m) { squares.add(m[0]); columns.add(m[1]); }
  }
  if (!columns.size || squares.size * 2 > sites.length) return spacing;
  return Math.max(spacing, Math.min(width / columns.size, spacing * 3));
}

// Coordinates along the edges, read from the labels the messages use ("B4*", "e5", "c1se"):
// letters marking columns along the bottom, letters marking rows (a hexagon's) at both ends of
// each row, numbers marking rows along the left. Labels on no such lines (a sphere) get none.
function drawCoordinates(sites, layer, spacing, unit, [x0, y0, w, h]) {
  const groups = { letter: new Map(), number: new Map() };
  for (const site of sites) {
    const m = COORDINATES.exec(site.label);
    if (!m) continue;
    for (const [kind, key] of [["letter", m[1]], ["number", m[2]]]) {
      if (!groups[kind].has(key)) groups[kind].set(key, []);
      groups[kind].get(key).push([site.x, -site.y]);
    }
  }
  const spread = (pts, i) => Math.max(...pts.map((p) => p[i])) - Math.min(...pts.map((p) => p[i]));
  const along = (map, i) => map.size > 1 && [...map.values()].every((v) => spread(v, i) <= spacing * 0.75);
  const mid = (pts, i) => (Math.max(...pts.map((p) => p[i])) + Math.min(...pts.map((p) => p[i]))) / 2;
  const size = unit * 0.3;
  const text = (key, attrs) => {
    el("text", { class: "coord", "font-size": size, ...attrs }, layer).textContent = key;
  };
  const { letter, number } = groups;
  if (along(letter, 0)) {  // letters mark columns: along the bottom
    for (const [key, pts] of letter) text(key, { x: mid(pts, 0), y: y0 + h - size * 0.35, "text-anchor": "middle" });
  } else if (along(letter, 1)) {  // letters mark rows (a hexagon's): at both ends of each row
    for (const [key, pts] of letter) {
      const [y, xs] = [mid(pts, 1) + size * 0.35, pts.map((p) => p[0])];
      text(key, { x: Math.min(...xs) - spacing * 0.8, y, "text-anchor": "middle" });
      text(key, { x: Math.max(...xs) + spacing * 0.8, y, "text-anchor": "middle" });
    }
  }
  if (along(number, 1)) {  // numbers mark rows: along the left
    for (const [key, pts] of number) text(key, { x: x0 + size * 0.4, y: mid(pts, 1) + size * 0.35 });
  }
}

function kindColours(drawing) {
  const colours = new Map();
  const kinds = [...drawing.lines.map((l) => l.kind), ...Object.values(drawing.kinds)];
  for (const kind of kinds) {
    if (!colours.has(kind)) {
      const other = [...colours.keys()].filter((k) => !CSS.supports("color", k)).length;
      colours.set(kind, CSS.supports("color", kind) ? kind : KIND_PALETTE[other % KIND_PALETTE.length]);
    }
  }
  return colours;
}

function drawCell(site, layers, spacing) {
  const points = site.shape.map(pt).join(" ");
  const inner = Math.min(...site.shape.map(([x, y]) => Math.hypot(x - site.x, y - site.y)));
  return {
    cell: el("polygon", { points, class: "cell" }, layers.cells),
    led: el("polygon", { points, class: "led" }, layers.leds),
    piece: el("circle", { cx: site.x, cy: -site.y, r: Math.min(inner * 0.62, spacing * 0.42),
                          class: "piece" }, layers.pieces),
    hit: el("polygon", { points, class: "hit" }, layers.hits),
  };
}

function drawSegment(site, layers, spacing, squares) {
  const [[ax, ay], [bx, by]] = site.shape;
  const along = (u) => [ax + u * (bx - ax), -(ay + u * (by - ay))];
  const line = (u0, u1, cls, parent) => {
    const [[x1, y1], [x2, y2]] = [along(u0), along(u1)];
    return el("line", { x1, y1, x2, y2, class: cls }, parent);
  };
  // A diagonal segment's bounding box is its square: shade it once as the cell.
  const key = [Math.min(ax, bx), Math.max(ax, bx), Math.min(ay, by), Math.max(ay, by)].join();
  let cell = null;
  if (ax !== bx && ay !== by && !squares.has(key)) {
    squares.add(key);
    cell = el("rect", { x: Math.min(ax, bx), y: -Math.max(ay, by), width: Math.abs(bx - ax),
                        height: Math.abs(by - ay), class: "cell square" }, layers.cells);
  }
  line(0, 1, "track", layers.cells);
  // The hit area leaves out the middle, where another segment may cross this one.
  const hit = el("g", { class: "hit" }, layers.hits);
  line(0.06, 0.4, "", hit);
  line(0.6, 0.94, "", hit);
  return {
    cell,
    led: line(0.04, 0.96, "led", layers.leds),
    piece: line(0.14, 0.86, "piece rod", layers.pieces),
    hit,
  };
}

function drawDot(site, layers, spacing) {
  const at = { cx: site.x, cy: -site.y };
  return {
    cell: el("circle", { ...at, r: spacing * 0.12, class: "cell" }, layers.cells),
    led: el("circle", { ...at, r: spacing * 0.42, class: "led" }, layers.leds),
    piece: el("circle", { ...at, r: spacing * 0.3, class: "piece" }, layers.pieces),
    hit: el("circle", { ...at, r: spacing * 0.45, class: "hit" }, layers.hits),
  };
}

function typicalSpacing(sites) {
  const centres = [...new Map(sites.map((s) => [`${s.x},${s.y}`, [s.x, s.y]])).values()];
  if (centres.length < 2) return 1;
  const step = Math.max(1, Math.floor(centres.length / 48));
  const nearest = [];
  for (let i = 0; i < centres.length; i += step) {
    const [x, y] = centres[i];
    let best = Infinity;
    for (const [u, v] of centres) {
      const d = Math.hypot(u - x, v - y);
      if (d > 0 && d < best) best = d;
    }
    nearest.push(best);
  }
  nearest.sort((a, b) => a - b);
  return nearest[Math.floor(nearest.length / 2)];
}

// The pieces as the game has them (engines' figures), in their sides' colours; a figure whose
// sites the sensors do not all see is drawn faint. What the sensors read stays visible: a
// reading no figure explains is drawn as a bare reading (a pale ring).
function drawFigures() {
  const layer = view.layers && view.layers.figures;
  if (!layer) return;
  layer.replaceChildren();
  view.figureAt = new Map();
  for (const figure of view.figures) {
    const parts = figure.sites.map((label) => view.sites.get(label)).filter(Boolean);
    if (!parts.length) continue;
    const g = el("g", { class: `figure ${figure.kind}`, "data-side": figure.side }, layer);
    g.style.setProperty("--side", sideColour(figure.side));
    g.style.setProperty("--edge", figure.side === "black" ? "#c8c8c8" : "#111");
    const round = ROUND.includes(figure.kind) || parts[0].site.shape.length < 3;
    if (parts.length > 1 || !round) drawOutline(g, parts); else drawOne(g, parts[0].site, figure.kind);
    figure.node = g;
    for (const label of figure.sites) {
      if (!view.figureAt.has(label) || figure.kind !== "pawn") view.figureAt.set(label, figure);
    }
  }
  markFigures();
}

function drawOne(g, site, kind) {
  const s = view.spacing;
  if (site.shape.length === 2) {
    const [[ax, ay], [bx, by]] = site.shape;
    const u = (t) => [ax + t * (bx - ax), -(ay + t * (by - ay))];
    const [[x1, y1], [x2, y2]] = [u(0.14), u(0.86)];
    el("line", { x1, y1, x2, y2, class: "rod-edge" }, g);
    el("line", { x1, y1, x2, y2, class: "rod" }, g);
    return;
  }
  const inner = site.shape.length >= 3
    ? Math.min(...site.shape.map(([x, y]) => Math.hypot(x - site.x, y - site.y))) : s * 0.5;
  const r = kind === "pawn" ? Math.min(inner * 0.95, s * 0.45) : Math.min(inner * 0.66, s * 0.42);
  const [cx, cy] = [site.x, -site.y];
  if (kind === "pawn") {   // a pawn: a base and a head, standing on whatever holds the site
    el("ellipse", { cx, cy: cy + r * 0.35, rx: r * 0.62, ry: r * 0.3, class: "body" }, g);
    el("path", { d: `M${cx - r * 0.34},${cy + r * 0.35} L${cx - r * 0.16},${cy - r * 0.2} ` +
                    `L${cx + r * 0.16},${cy - r * 0.2} L${cx + r * 0.34},${cy + r * 0.35} Z`,
                 class: "body" }, g);
    el("circle", { cx, cy: cy - r * 0.38, r: r * 0.3, class: "body" }, g);
    return;
  }
  el("circle", { cx, cy, r, class: "body" }, g);
  if (kind === "token") el("circle", { cx, cy, r: r * 0.6, class: "face" }, g);
}

// A piece over several sites: its sites filled, and its outline (the edges no two of its
// sites share) drawn strong.
function drawOutline(g, parts) {
  const key = ([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`;
  const edges = new Map();
  for (const { site } of parts) {
    const pts = site.shape;
    el("polygon", { points: pts.map(pt).join(" "), class: "fill" }, g);
    for (let i = 0; i < pts.length; i++) {
      const [a, b] = [pts[i], pts[(i + 1) % pts.length]];
      const k = [key(a), key(b)].sort().join("|");
      edges.set(k, edges.has(k) ? null : [a, b]);
    }
  }
  for (const edge of edges.values()) {
    if (!edge) continue;
    const [[x1, y1], [x2, y2]] = edge;
    el("line", { x1, y1: -y1, x2, y2: -y2, class: "outline" }, g);
  }
}

function markFigures() {
  for (const figure of view.figures) {
    if (!figure.node) continue;
    const seen = figure.sites.every((label) => view.pieces.has(label));
    figure.node.classList.toggle("missing", !seen);
  }
  for (const [label, parts] of view.sites) {
    const explained = view.figureAt && view.figureAt.has(label);
    parts.piece.classList.toggle("on", view.pieces.has(label) && !explained);
  }
}

function showPieces(pieces) {
  view.pieces = new Set(pieces);
  markFigures();
}

function showLeds(leds) {
  for (const [label, parts] of view.sites) {
    const led = leds[label];
    const node = parts.led;
    node.setAttribute("class", led ? `led lit ${led[1]}` : "led");
    node.style.setProperty("--led", led ? full(led[0]) : "transparent");
    node.style.setProperty("--dim", led ? String(dimness(led[0])) : "1");
    if (led) node.dataset.colour = led[0]; else delete node.dataset.colour;
  }
  view.leds = leds;
}

// The daemon dims colours by its brightness setting: show the hue at full strength and the
// brightness as opacity, so that a dimmed LED still reads on a screen.
function full(hex) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const top = Math.max(...rgb, 1);
  return `rgb(${rgb.map((c) => Math.round((c * 255) / top)).join(",")})`;
}

function dimness(hex) {
  const top = Math.max(...[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  return 0.45 + 0.55 * (top / 255);
}

// ------------------------------------------------------------------------------ input
let ghost = null;
let press = null;   // {site, x, y, dragging}

function siteAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const node = hit && hit.closest("[data-site]");
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
  if (!view.controls || !view.simulated || e.button !== 0) return;
  const node = e.target.closest("[data-site]");
  if (!node) return;
  e.preventDefault();
  press = { site: node.dataset.site, x: e.clientX, y: e.clientY, dragging: false };
}

function onPointerMove(e) {
  if (!press) return;
  if (!press.dragging) {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_PX) return;
    if (!view.pieces.has(press.site)) { press = null; return; }
    press.dragging = true;
    press.group = pieceSites(press.site);
    document.body.classList.add("dragging");
    // Without noise the piece leaves the board at once, so its targets light while it moves
    // (a piece over several sites leaves them all, as a hand lifts it).
    if (!$("noise").checked || press.group.length > 1) {
      for (const label of press.group) send({ type: "lift", site: label });
    }
  }
  const p = boardPoint(e);
  ghost.setAttribute("cx", p.x);
  ghost.setAttribute("cy", p.y);
  ghost.setAttribute("visibility", "visible");
}

function onPointerUp(e) {
  if (!press) return;
  const { site, dragging, group } = press;
  press = null;
  if (!dragging) {
    send({ type: "toggle", site });
    return;
  }
  ghost.setAttribute("visibility", "hidden");
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

// The board's keys work whatever has focus (caught before the focused control sees them), so
// Enter never re-submits the game picker; Space on a focused MENU/BACK/OK button presses it.
// The sites of the piece on ``label``: all of a figure's sites when the game has one there
// and the sensors see them all, else the site alone.
function pieceSites(label) {
  const figure = view.figureAt && view.figureAt.get(label);
  if (!figure || figure.sites.length < 2) return [label];
  return figure.sites.every((s) => view.pieces.has(s)) ? figure.sites : [label];
}

// ``group`` moved as ``from`` moved to ``to``: each site shifted by the same offset, to the
// nearest site there (squares whose diagonals alternate turn a piece's triangles), when every
// shifted place has a site of its own; else null.
function shifted(group, from, to) {
  const a = view.sites.get(from).site, b = view.sites.get(to).site;
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const out = [to];
  for (const label of group) {
    if (label === from) continue;
    const s = view.sites.get(label).site;
    let found = null, best = view.spacing * 0.6;
    for (const [other, parts] of view.sites) {
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
// of, when they are as many as its own (a square piece lands on a square whose diagonal runs the
// other way as that square's two triangles); else null.
function landed(group, from, to) {
  const [a, b] = [cellCentre(from), cellCentre(to)];
  if (!a || !b) return null;
  const carry = ([x, y]) => [x + b[0] - a[0], y + b[1] - a[1]];
  const moved = group.map((label) => view.sites.get(label).site.shape.map(carry));
  if (moved.some((poly) => poly.length < 3)) return null;
  const out = [];
  for (const [label, parts] of view.sites) {
    const poly = parts.site.shape;
    if (poly.length < 3) continue;
    const c = centreOf(poly);
    const probes = [c, ...poly.map(([x, y]) => [x + (c[0] - x) * 0.3, y + (c[1] - y) * 0.3])];
    const inside = probes.filter((q) => moved.some((m) => contains(m, q))).length;
    if (inside * 2 > probes.length) out.push(label);
  }
  return out.length === group.length ? out : null;
}

const centreOf = (pts) => [0, 1].map((i) => pts.reduce((sum, p) => sum + p[i], 0) / pts.length);

// The centre of the cell of ``label``: the mean of its sites' centres (null: no cell).
function cellCentre(label) {
  const core = (l) => (/^[A-Za-z]+\d+/.exec(l) || [null])[0];
  const cell = core(label);
  if (!cell) return null;
  const pts = [...view.sites.values()].filter((p) => core(p.site.label) === cell)
    .map((p) => (p.site.shape.length >= 3 ? centreOf(p.site.shape) : [p.site.x, p.site.y]));
  return centreOf(pts);
}

// Whether ``poly`` contains the point ``q`` (even-odd rule).
function contains(poly, [x, y]) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onKey(e) {
  if (!view.controls || e.ctrlKey || e.metaKey || e.altKey) return;
  let button = { Enter: "ok", Backspace: "back", Escape: "back", m: "menu", M: "menu" }[e.key];
  const focused = e.target.closest && e.target.closest("[data-button]");
  if (e.key === " " && focused) button = focused.dataset.button;
  if (!button) return;
  e.preventDefault();
  e.stopPropagation();
  pressButton(button, e.shiftKey);  // Shift: a long press (Shift+M offers power-off)
}

// A button held this long is a long press, as on the board.
const LONG_PRESS_MS = 1000;

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

// ------------------------------------------------------------------------------ picker
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
  $("pick-level-label").hidden = !view.game.computer;
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
}

function newGame(e) {
  e.preventDefault();
  if (e.submitter) e.submitter.blur();
  const playing = view.status && !view.status.result && view.status.moves > 0;
  if (playing && !confirm("Abandon the game in progress and start a new one?")) return;
  const sizeHidden = $("pick-size-label").hidden;
  send({
    type: "new_game",
    game: $("pick-game").value,
    size: sizeHidden ? null : Number($("pick-size").value),
    variant: $("pick-variant").value,
    computer: $("pick-players").value || null,
    level: Number($("pick-level").value),
  });
}

// ------------------------------------------------------------------------------ start
function start() {
  document.body.classList.toggle("watch", WATCH);
  const svg = $("board");
  svg.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("keydown", onKey, true);
  $("raw").addEventListener("change", showRaw);
  for (const node of document.querySelectorAll("[data-button]")) holdable(node);
  $("pick-game").addEventListener("change", fillOptions);
  $("pick-players").addEventListener("change", (e) => {
    $("pick-level-label").hidden = !e.target.value;
  });
  $("picker").addEventListener("submit", newGame);
  $("noise").addEventListener("change", (e) => send({ type: "noise", on: e.target.checked }));
  $("set-up").addEventListener("click", () => send({ type: "setup", board: "expected" }));
  // A phone's address bar showing or hiding changes only the height: the zoom chosen stays.
  let width = innerWidth;
  window.addEventListener("resize", () => {
    if (innerWidth !== width) fitZoom();
    width = innerWidth;
  });
  $("zoom-in").addEventListener("click", () => setZoom(zoom * ZOOM_STEP));
  $("zoom-out").addEventListener("click", () => setZoom(zoom / ZOOM_STEP));
  $("clear").addEventListener("click", () => send({ type: "setup", board: "empty" }));
  connect();
}

start();

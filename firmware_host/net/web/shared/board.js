// @ts-check
// A board drawn from the engine's sites (no game is named here): cells, segments and points,
// coordinates at both ends of every row and column, the pieces as the game expects them (whole
// pieces, each kind marked), what the sensors see, the lights as marks of their own (never a
// side's colour filling a site), the last move and a move still to make. One module for every
// board the project draws: the board's page and /watch, a stored game's replay, the café
// dashboard's tiles and its archive; the colours and sizes are in board.css beside it. The data
// comes from firmware_host/net/web/drawn.py. An ES module, no build step; `tsc --noEmit` checks the
// types below (tsconfig.json, tests/net/web/test_scripts_typed.py).

/** A point in the engine's coordinates (board units, y upwards). @typedef {[number, number]} Point */

/**
 * A site as the server sends it.
 * @typedef {object} Site
 * @property {string} label
 * @property {number} x
 * @property {number} y
 * @property {Point[]} shape  its outline (3 points or more), its segment (2) or nothing (a point)
 * @property {string} [point]  a twin (one of several sites of one point): the point's name
 * @property {string[]} [twins]  ... and the point's other sites
 * @property {number} [part]  which part of a board drawn in parts one above the other
 */

/**
 * What a board has besides its sites: guide lines under them, and kinds that colour sites.
 * @typedef {{lines: {kind: string, points: Point[]}[], kinds: Record<string, string>}} Drawing
 */

/**
 * A piece as the game expects it: its side, the sites it covers, its kind; ``mark`` "flip" (a
 * token still to flip) or "plan" (a piece still to place).
 * @typedef {{side: string, sites: string[], kind: string, mark?: string}} Figure
 */

/**
 * A move: the sites it emptied and filled, and the unseen pieces (pawns) it carried [from, to].
 * @typedef {{from: string[], to: string[], pawns?: string[][]}} Move
 */
/** A move still to make, with the pieces it puts down. @typedef {Move & {figures: Figure[]}} Plan */
/**
 * An LED: its colour "#rrggbb" and its pattern (steady, slow, fast, pulse).
 * @typedef {[string, string]} Led
 */

/**
 * What is drawn of one site.
 * @typedef {object} Parts
 * @property {Site} site
 * @property {SVGElement | null} cell  its shaded cell (none for a segment's second half)
 * @property {SVGGElement | null} led  where its light is drawn (Board.ledOf)
 * @property {SVGElement | null} piece  a sensor's reading no figure explains (Board.pieceOf)
 * @property {() => SVGElement} makePiece  that reading drawn, into the pieces' layer
 * @property {SVGElement | null} hit  where a click lands (null on a board nobody clicks)
 * @property {number} [radius]  a point's outline, when lit
 * @property {string} [lit]  its light as last drawn ("" for none)
 */

/**
 * How a board is drawn: ``interactive`` false for a picture (no hit areas, no site buttons),
 * ``minLabelPx`` the smallest coordinates on the screen, ``under`` a second frame of the same
 * box beneath the board's own, for what never changes once built (the table, the cells, the
 * guide lines, the coordinates): a page of many boards (the café wall) then paints only the
 * board's changing parts again when a piece moves.
 * @typedef {{interactive?: boolean, minLabelPx?: number, under?: SVGSVGElement | null}} Options
 */

/** @typedef {Record<string, SVGGElement>} Layers */

const SVG_NS = "http://www.w3.org/2000/svg";
/**
 * Sides' colours (a side named by a colour gets this shade of it), chosen with the lights'
 * below to stay apart for the colour-blind: every two sides of a game, and a light's meaning
 * from every other and from the sides, measured under simulated protanopia and deuteranopia
 * (tests/net/web/test_page_defects.py). Red is dark and green light, so the two differ in lightness
 * where their hues look alike; a side's pieces carry its shape too (sideShape).
 * @type {Record<string, string>}
 */
export const SIDE_COLOURS = {
  white: "#f3efe4", black: "#26272b", red: "#a82a24", blue: "#3d7be0", green: "#66e0b0",
  yellow: "#e8c43a",
};
/**
 * What each light means, in the board's LED colour for it (board/view.py LIGHTS, a little lighter
 * where the pure LED colour is too dark on a dark screen; tests/net/web/test_light_colours.py):
 * amber where a piece goes, sky blue to choose by a tap, crimson where the board must be put
 * right (take off, put back), white to look at (flip it, the winning line, a hint, the
 * corners flashing while the running clock is low), violet
 * where a pawn stands or goes from.
 * @type {Record<string, string>}
 */
export const LIGHT_COLOURS = {
  target: "#ffc800", fill: "#ffc800", twin: "#ffc800",
  pick: "#4db8ff", picked: "#4db8ff",
  remove: "#ff3366", extra: "#ff3366", empty: "#ff3366", missing: "#ff3366",
  flip: "#ffffff", marker: "#6633ff", carry: "#6633ff", win: "#ffffff", hint: "#ffffff",
  low_time: "#ffffff",
};
let hatchings = 0;   // each board's hatching has its own id
/** The shapes that tell sides apart besides their colours (the n-th side's). */
export const SIDE_SHAPES = ["circle", "square", "triangle", "diamond"];
const PALETTE = ["#d9a441", "#5aa9e6", "#e36464", "#7bc47f", "#b48ade", "#e0e0e0"];
// Kinds that are no colour name (e.g. Anti-Grid's shared points): light, neutral first.
const KIND_PALETTE = ["#e8e8e8", "#d9a441", "#7bc47f", "#b48ade"];
// Figure kinds drawn as round pieces (or rods, on segments); any other kind is drawn as the
// outline of the sites it covers, marked with the first letters of its kind.
const ROUND = ["stone", "token", "pawn", "trirod", "piece"];
/**
 * What each light asks, drawn as a mark inside the site's outline (the outline glows in the
 * LED's colour): a ring for "a piece goes here", a cross for "take it off", and so on.
 * @type {Record<string, string>}
 */
export const LIGHT_MARKS = {
  target: "ring", fill: "ring", twin: "ring-plus", missing: "back", pick: "tap", picked: "tap",
  remove: "cross", extra: "cross", empty: "cross", flip: "turn", marker: "none", win: "none",
  hint: "ring", carry: "none", low_time: "clock",
};
/** Words for each light, for the legend and the sites' names. @type {Record<string, string>} */
const LIGHT_WORDS = {
  target: "can go here", fill: "put a piece here", twin: "put the twin here",
  missing: "put a piece back here", pick: "tap to choose", picked: "OK chooses this",
  remove: "take this off", extra: "take this off", empty: "take this off", flip: "flip this token",
  marker: "a pawn stands here", win: "the winning line", hint: "hint",
  carry: "move the unseen pawn off here (the token stays)", low_time: "the running clock is low",
};
// The space between the parts of a board drawn in parts, in spacings: room for the coordinates
// of both parts' facing ends, apart enough to tell whose they are.
const PART_GAP = 5;
const LAYERS = ["cells", "lines", "coords", "last", "leds", "figures", "arrows", "plan", "pieces", "twins", "hits"];
// The layers drawn once a board is built (the first, so beneath the others): in ``under``, if given.
const FIXED = ["cells", "lines", "coords"];

/**
 * An SVG element with ``attrs``, appended to ``parent`` if given.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} name
 * @param {Record<string, string | number>} attrs
 * @param {Element | null} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.append(node);
  return node;
}

/** A point as SVG draws it (y downwards). @param {Point} p */
const pt = ([x, y]) => `${x},${-y}`;
/** The mean of points. @param {Point[]} pts @returns {Point} */
export const centreOf = (pts) => {
  /** @param {0 | 1} i */
  const mean = (i) => pts.reduce((sum, p) => sum + p[i], 0) / pts.length;
  return [mean(0), mean(1)];
};
/** @param {string | null | undefined} text */
export const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");
// A site label's coordinates: its letters and its number ("B4*" -> B, 4; "c1se" -> c, 1).
const COORDINATES = /([A-Za-z]+)(\d+)/;
/** Where a site is drawn: its outline's points, or its centre. @param {Site} s @returns {Point[]} */
const outlinePoints = (s) => (s.shape.length ? s.shape : [[s.x, s.y]]);
/** The centre of a site's cell (its centre, for a segment or a point). @param {Site} s @returns {Point} */
export const siteCentre = (s) => (s.shape.length >= 3 ? centreOf(s.shape) : [s.x, s.y]);

/**
 * The last move as the sites it changed tell it: those now empty it left, those now held it
 * went to; null when it changed none.
 * @param {string[] | null | undefined} changed
 * @param {Iterable<string>} occupied
 * @returns {Move | null}
 */
export function lastMove(changed, occupied) {
  if (!changed || !changed.length) return null;
  const held = new Set(occupied);
  return { from: changed.filter((s) => !held.has(s)), to: changed.filter((s) => held.has(s)) };
}

/**
 * A side's colour on the board: its own shade of a colour name, else the n-th of a palette.
 * @param {string | null | undefined} name
 * @param {string[]} sides  every side, in order
 */
export function sideColour(name, sides) {
  if (!name) return "transparent";
  if (SIDE_COLOURS[name]) return SIDE_COLOURS[name];
  if (CSS.supports("color", name)) return name;
  const i = sides.indexOf(name);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
}

/**
 * The shape that marks a side (a circle, a square, ...) beside its colour: the n-th side's.
 * @param {string | null | undefined} name @param {string[]} sides
 */
export function sideShape(name, sides) {
  const i = name ? sides.indexOf(name) : -1;
  return i < 0 ? "" : SIDE_SHAPES[i % SIDE_SHAPES.length];
}

export class Board {
  /** @param {SVGSVGElement} svg @param {Options} [options] */
  constructor(svg, { interactive = true, minLabelPx = 10, under = null } = {}) {
    this.svg = svg;
    this.under = under;
    this.interactive = interactive;
    /** @type {Map<string, Parts>} */
    this.sites = new Map();
    /** @type {Set<string>} */
    this.pieces = new Set();
    /** @type {Figure[]} */
    this.figures = [];
    /** Every side, in order (their colours). @type {string[]} */
    this.sides = [];
    this.spacing = 1;
    /** @type {Map<string, Figure>} */
    this.figureAt = new Map();
    /** @type {Map<Figure, SVGGElement>} */
    this.figureNodes = new Map();
    this.minLabelPx = minLabelPx;  // coordinates are never drawn smaller on the screen
    /** @type {Layers | null} */
    this.layers = null;
    /** @type {Site[] | null} */
    this.siteList = null;
    /** What the board was built from, to build it again. @type {[Site[], Drawing] | null} */
    this.source = null;
    this.stacked = false;
    /** @type {SVGRectElement | null} */
    this.table = null;
    /** @type {number[]} */
    this.viewBox = [0, 0, 1, 1];
    /** @type {Move | null} */
    this.last = null;
    /** @type {Plan | null} */
    this.plan = null;
  }

  // ---------------------------------------------------------------------------- building
  /**
   * Draw ``sites`` afresh. Sites in parts side by side (two hemispheres) are drawn one above the
   * other on a tall frame (a phone held upright), so each is twice as large.
   * @param {Site[]} sites
   * @param {Drawing} drawing
   * @param {DOMRect} [r]  the frame's size on the screen (measured if not given: a page drawing
   *   many boards measures them all first, laid out once)
   */
  build(sites, drawing, r = this.svg.getBoundingClientRect()) {
    this.source = [sites, drawing];
    const [beside, stacked] = partsOf(sites);
    this.stacked = stacked !== sites && fitScale(stacked, r) > fitScale(beside, r);
    sites = this.stacked ? stacked : beside;
    const svg = this.svg, fixed = this.under || svg;
    svg.replaceChildren();
    fixed.replaceChildren();
    this.sites.clear();
    this.siteList = sites;
    const spacing = this.spacing = spacingOf(sites);
    this.table = svgEl("rect", { class: "table" }, fixed);
    /** @type {Layers} */
    const layers = {};
    this.layers = layers;
    for (const name of LAYERS) {
      const into = FIXED.includes(name) ? fixed : svg;
      if (name !== "hits" || this.interactive) layers[name] = svgEl("g", { class: name }, into);
    }
    const kinds = kindColours(drawing);
    for (const line of drawing.lines) {
      svgEl("polyline", { points: line.points.map(pt).join(" "), class: "guide",
                          stroke: kinds.get(line.kind) || "" }, layers.lines);
    }
    /** @type {Set<string>} */
    const squares = new Set();
    for (const site of sites) {
      const draw = site.shape.length >= 3 ? drawCell : site.shape.length === 2 ? drawSegment : drawDot;
      const parts = draw(site, layers, spacing, squares);
      const kind = drawing.kinds[site.label];
      if (kind !== undefined && parts.cell) {
        parts.cell.classList.add("kind");
        parts.cell.style.stroke = kinds.get(kind) || "";
      }
      if (parts.hit) nameHit(parts.hit, site);
      if (site.point && site.point !== site.label) {
        const c = siteCentre(site);
        const label = svgEl("text", { x: c[0], y: -c[1], class: "twin-name", "font-size": spacing * 0.3,
                                      "text-anchor": "middle", "dominant-baseline": "central" }, layers.twins);
        label.textContent = site.label;  // its own name, as the OLED says it
        label.dataset.for = site.label;
      }
      this.sites.set(site.label, parts);
      if (this.interactive) {  // a picture (a café tile) draws them as they are first needed
        this.ledOf(parts);
        this.pieceOf(parts);
      }
    }
    this.layout(r);
    this.showFigures(this.figures);
    this.showLast(this.last);
    this.showPlan(this.plan);
  }

  // The view box and the coordinates, for the board's size on the screen now: coordinates at
  // least minLabelPx tall, outside the sites, at both ends of every row and column; none on a
  // board nobody plays on so small that a readable one would nearly fill a site (a café tile).
  layout(r = this.svg.getBoundingClientRect()) {
    if (!this.siteList || !this.layers || !this.table) return;
    const sites = this.siteList, spacing = this.spacing, coords = this.layers.coords;
    const points = sites.flatMap(outlinePoints);
    let box = extent(points);
    let size = spacing * 0.32, bare = false;
    /** @type {Label[]} */
    let placed = [];
    for (let pass = 0; pass < 3; pass++) {   // the labels' size sets the box sets the scale
      const pad = size * 0.4;
      const [w, h] = [box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad];
      const scale = r.width && r.height ? Math.min(r.width / w, r.height / h) : 0;
      const readable = scale ? this.minLabelPx / scale : 0;
      // ... at the largest scale the board can have; a board played on zooms in instead
      bare ||= pass === 0 && !this.interactive && readable > spacing * 0.7;
      size = Math.min(Math.max(spacing * 0.32, readable), spacing * 1.2);
      placed = bare ? [] : coordinatesOf(sites, spacing, size);
      /** @type {Point[]} */
      const corners = placed.flatMap((l) => {
        const [x, y] = labelAt(l);
        return [[x - l.half, y - size * 0.6], [x + l.half, y + size * 0.6]];
      });
      box = extent([...points, ...corners]);
      this.viewBox = [box[0] - pad, -box[3] - pad, box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad];
    }
    drawCoordinates(placed, coords, spacing, size);
    for (const frame of this.under ? [this.svg, this.under] : [this.svg]) {
      frame.setAttribute("viewBox", this.viewBox.join(" "));
      frame.style.setProperty("--unit", `${spacing}px`);  // a length: Firefox wants one in calc()
    }
    const [x0, y0, w, h] = this.viewBox;
    for (const [k, v] of Object.entries({ x: x0, y: y0, width: w, height: h, rx: spacing * 0.3 })) {
      this.table.setAttribute(k, String(v));
    }
  }

  // ---------------------------------------------------------------------------- state
  /**
   * The pieces as the game expects them: each in its side's colour, a piece over several sites
   * as one outlined piece with its kind's mark, a token still to flip marked.
   * @param {Figure[] | null | undefined} figures
   */
  showFigures(figures) {
    this.figures = figures || [];
    const layer = this.layers && this.layers.figures;
    if (!layer) return;
    // A piece drawn as it still is keeps its node: only the pieces that changed are drawn.
    /** @type {Map<string, SVGGElement[]>} */
    const drawn = new Map();
    for (const [figure, node] of this.figureNodes) {
      if (node.parentNode !== layer) continue;  // built afresh since
      const key = this.figureKey(figure);
      drawn.set(key, [...(drawn.get(key) || []), node]);
    }
    this.figureAt = new Map();
    this.figureNodes = new Map();
    for (const figure of this.figures) {
      const g = drawn.get(this.figureKey(figure))?.shift() || this.drawFigure(figure, layer);
      if (!g) continue;
      this.figureNodes.set(figure, g);
      for (const label of figure.sites) {
        if (!this.figureAt.has(label) || figure.kind !== "pawn") this.figureAt.set(label, figure);
      }
    }
    for (const nodes of drawn.values()) nodes.forEach((node) => node.remove());
    [...this.figureNodes.values()].forEach((node, i) => {  // in the figures' order (which covers which)
      if (layer.children[i] !== node) layer.insertBefore(node, layer.children[i] || null);
    });
    this.markFigures();
  }

  /** What a piece looks like drawn (equal keys: equal drawings). @param {Figure} figure */
  figureKey(figure) {
    return `${JSON.stringify(figure)} ${sideColour(figure.side, this.sides)}`;
  }

  /**
   * One piece, drawn into ``layer``; null when none of its sites is on this board.
   * @param {Figure} figure
   * @param {SVGGElement} layer
   * @param {string} [extra]  more classes
   */
  drawFigure(figure, layer, extra = "") {
    const parts = figure.sites.map((label) => this.sites.get(label)).filter(isParts);
    if (!parts.length) return null;
    const mark = figure.mark ? ` ${figure.mark}` : "";
    const shape = sideShape(figure.side, this.sides);
    const g = svgEl("g", { class: `figure ${figure.kind}${mark}${extra}`, "data-side": figure.side,
                           "data-shape": shape, "data-sites": figure.sites.join(" ") }, layer);
    g.style.setProperty("--side", sideColour(figure.side, this.sides));
    g.style.setProperty("--edge", lightness(sideColour(figure.side, this.sides)) < 0.3 ? "#e6e6e6" : "#101114");
    svgEl("title", {}, g).textContent = `${capital(figure.side)} ${figure.kind}` +
      (figure.mark === "flip" ? " (to flip)" : figure.mark === "plan" ? " (to place)" : "");
    const round = ROUND.includes(figure.kind) || parts[0].site.shape.length < 3;
    if (parts.length > 1 || !round) {
      drawOutline(g, parts, this.spacing);
      const c = centreOf(parts.map((p) => centreOf(p.site.shape)));
      const label = svgEl("text", { x: c[0], y: -c[1], class: "kind-mark", "font-size": this.spacing * 0.42,
                                    "text-anchor": "middle", "dominant-baseline": "central" }, g);
      label.textContent = kindMark(figure.kind);
    } else {
      drawOne(g, parts[0].site, figure.kind, this.spacing);
    }
    if (shape && shape !== "circle") {
      if (parts.length > 1 || !round) this.hatch(g, parts);
      else this.markSide(g, parts, shape);
    }
    if (figure.mark === "flip") {
      const c = siteCentre(parts[0].site);
      const t = svgEl("text", { x: c[0], y: -c[1], class: "flip-mark", "font-size": this.spacing * 0.5,
                                "text-anchor": "middle", "dominant-baseline": "central" }, g);
      t.textContent = "↻";
    }
    return g;
  }

  /**
   * A side's shape on its round piece (every side but the first): a small square, triangle or
   * diamond at its centre, so that sides differ by more than their colours.
   * @param {SVGGElement} g @param {Parts[]} parts @param {string} shape
   */
  markSide(g, parts, shape) {
    const c = siteCentre(parts[0].site);
    const r = this.spacing * 0.11;
    const [x, y] = [c[0], -c[1]];
    /** @type {Record<string, number[][]>} */
    const corners = {
      square: [[-1, -1], [1, -1], [1, 1], [-1, 1]], triangle: [[0, -1.2], [1.1, 0.8], [-1.1, 0.8]],
      diamond: [[0, -1.3], [1.3, 0], [0, 1.3], [-1.3, 0]],
    };
    const points = (corners[shape] || []).map(([u, v]) => `${x + u * r},${y + v * r}`).join(" ");
    svgEl("polygon", { points, class: "side-mark" }, g);
  }

  /**
   * A piece drawn as its sites' outline, of a side but the first: hatched over its colour.
   * @param {SVGGElement} g @param {Parts[]} parts
   */
  hatch(g, parts) {
    const svg = this.svg;
    let pattern = svg.querySelector("pattern.hatching");
    if (!pattern) {
      const defs = svgEl("defs", {}, null);
      svg.prepend(defs);
      const s = this.spacing;
      pattern = svgEl("pattern", { id: `hatching-${++hatchings}`, class: "hatching", patternUnits: "userSpaceOnUse",
                                   width: s * 0.22, height: s * 0.22, patternTransform: "rotate(45)" }, defs);
      svgEl("line", { x1: 0, y1: 0, x2: 0, y2: s * 0.22, "stroke-width": s * 0.07 }, pattern);
    }
    for (const { site } of parts) {
      svgEl("polygon", { points: site.shape.map(pt).join(" "), class: "hatch",
                         fill: `url(#${pattern.id})` }, g);
    }
    const text = g.querySelector(".kind-mark");
    if (text) g.append(text);   // the kind's letters above the hatching
  }

  // A piece the sensors do not see is faint; a reading no piece explains is drawn apart.
  markFigures() {
    for (const [figure, node] of this.figureNodes) {
      const seen = figure.kind === "pawn" || figure.sites.every((label) => this.pieces.has(label));
      node.classList.toggle("missing", !seen);
    }
    for (const [label, parts] of this.sites) {
      const on = this.pieces.has(label) && !this.figureAt.has(label);
      if (on || parts.piece) this.pieceOf(parts).classList.toggle("on", on);
    }
  }

  /**
   * A site's light and its sensor's reading, each drawn when first needed: on a picture most
   * sites never show either (half the elements of a café tile's board otherwise).
   * @param {Parts} parts
   */
  ledOf(parts) {
    return parts.led ||= svgEl("g", { class: "led" }, /** @type {Layers} */ (this.layers).leds);
  }

  /** @param {Parts} parts */
  pieceOf(parts) {
    return parts.piece ||= parts.makePiece();
  }

  /** What the sensors see. @param {Iterable<string>} pieces */
  showPieces(pieces) {
    this.pieces = new Set(pieces);
    this.markFigures();
  }

  /**
   * The lights: each lit site's outline glows in its LED's colour (its pattern as the LED
   * blinks) with a mark saying what it asks.
   * @param {Record<string, Led>} leds  site -> its LED
   * @param {Record<string, string>} [kinds]  site -> what its light asks (target, remove, ...)
   */
  showLights(leds, kinds = {}) {
    for (const [label, parts] of this.sites) {
      const led = leds[label];
      const kind = led ? kinds[label] || "target" : null;
      const lit = led ? `${led.join(" ")} ${kind}` : "";
      if ((parts.lit ?? "") === lit) continue;  // as drawn: only the lights that changed are touched
      parts.lit = lit;
      const node = this.ledOf(parts);
      node.setAttribute("class", led ? `led lit ${led[1]} ${kind}` : "led");
      node.style.setProperty("--led", led ? full((kind && LIGHT_COLOURS[kind]) || led[0]) : "transparent");
      node.style.setProperty("--dim", led ? String(dimness(led[0])) : "1");
      if (led && kind) {
        node.dataset.colour = led[0];
        node.dataset.kind = kind;
      } else {
        delete node.dataset.colour;
        delete node.dataset.kind;
      }
      if (node.dataset.drawn !== (kind || "")) {
        node.dataset.drawn = kind || "";
        drawMark(node, parts, kind, this.spacing);
      }
    }
  }

  /**
   * The last move: its sites ringed, an arrow from where it left to where it went.
   * @param {Move | null} last
   */
  showLast(last) {
    this.last = last;
    this.redraw("arrows", last, (layer, move) => {   // above the pieces, never hidden by one
      this.arrow(layer, move.from, move.to, "last-arrow");
      for (const [from, to] of move.pawns || []) {   // a pawn's walk, which no sensor sees
        this.arrow(layer, [from], [to], "last-arrow pawn-walk");
      }
    });
    this.redraw("last", last, (layer, move) => {
      for (const label of [...move.from, ...move.to, ...(move.pawns || []).map(([from]) => from)]) {
        const parts = this.sites.get(label);
        if (parts) outlineOf(parts, layer, `last-move${move.to.includes(label) ? " to" : " from"}`);
      }
    });
  }

  /**
   * A move still to make (the computer's): its pieces drawn as ghosts where they go, an arrow.
   * @param {Plan | null} plan
   */
  showPlan(plan) {
    this.plan = plan;
    this.redraw("plan", plan, (layer, move) => {
      for (const figure of move.figures) this.drawFigure(figure, layer, " ghost-piece");
      this.arrow(layer, move.from, move.to, "plan-arrow");
    });
  }

  /**
   * Layer ``name`` emptied, then drawn by ``draw(layer, value)`` when there is a ``value``.
   * @template T
   * @param {string} name
   * @param {T | null} value
   * @param {(layer: SVGGElement, value: T) => void} draw
   */
  redraw(name, value, draw) {
    const layer = this.layers && this.layers[name];
    if (!layer) return;
    layer.replaceChildren();
    if (value) draw(layer, value);
  }

  /**
   * An arrow from the centre of the sites ``from`` to that of ``to`` (none when they are close).
   * @param {SVGGElement} layer @param {string[]} from @param {string[]} to @param {string} cls
   */
  arrow(layer, from, to, cls) {
    /** @param {string[]} labels @returns {Point | null} */
    const centre = (labels) => {
      /** @type {Point[]} */
      const pts = labels.map((l) => this.sites.get(l)).filter(isParts).map((p) => [p.site.x, p.site.y]);
      return pts.length ? centreOf(pts) : null;
    };
    const [a, to0] = [centre(from), centre(to)];
    if (!a || !to0) return;
    const length = Math.hypot(to0[0] - a[0], to0[1] - a[1]);
    if (length < this.spacing * 0.5) return;
    const s = this.spacing;
    // ... its head at the edge of the piece it points to, not under it
    const back = Math.min(s * 0.4, length * 0.3) / length;
    /** @type {Point} */
    const b = [to0[0] - (to0[0] - a[0]) * back, to0[1] - (to0[1] - a[1]) * back];
    svgEl("line", { x1: a[0], y1: -a[1], x2: b[0], y2: -b[1], class: cls,
                    "stroke-width": s * 0.08, "marker-end": "" }, layer);
    const angle = Math.atan2(-(b[1] - a[1]), b[0] - a[0]);
    /** @param {number} da */
    const head = (da) => `${b[0] - s * 0.3 * Math.cos(angle + da)},${-b[1] - s * 0.3 * Math.sin(angle + da)}`;
    svgEl("polygon", { points: `${b[0]},${-b[1]} ${head(0.45)} ${head(-0.45)}`, class: `${cls} head` }, layer);
  }

  /**
   * The sites of a point with several (an Antipod edge point): highlighted together.
   * @param {string} label @param {boolean} on @returns {string[]} the point's sites
   */
  highlightTwins(label, on) {
    const parts = this.sites.get(label);
    const site = parts && parts.site;
    const all = site && site.twins ? [label, ...site.twins] : [];
    for (const other of all) {
      const p = this.sites.get(other);
      if (p && p.cell) p.cell.classList.toggle("twin-hi", on);
    }
    return all;
  }

  /**
   * The sites of the piece on ``label`` (all of a figure's, when the sensors see them all).
   * @param {string} label
   */
  pieceSites(label) {
    const figure = this.figureAt.get(label);
    if (!figure || figure.sites.length < 2) return [label];
    return figure.sites.every((s) => this.pieces.has(s)) ? figure.sites : [label];
  }
}

/** @param {Parts | undefined} p @returns {p is Parts} */
function isParts(p) {
  return p !== undefined;
}

/**
 * A site's hit area: a button named by its label (and its point's, for a twin).
 * @param {SVGElement} hit
 * @param {Site} site
 */
function nameHit(hit, site) {
  hit.dataset.site = site.label;
  hit.setAttribute("role", "button");
  const twin = site.point && site.point !== site.label;
  hit.setAttribute("aria-label", twin ? `${site.label} (the point ${site.point})` : site.label);
  if (twin) {
    svgEl("title", {}, hit).textContent =
      `${site.label} is ${site.point}: one point with two places (${[site.label, ...(site.twins || [])].join(" and ")})`;
  }
}

/** [min x, min y, max x, max y] of points (engine coordinates, y upwards). @param {Point[]} points */
function extent(points) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * How large sites can be drawn in a frame of the rect ``r`` (px per board unit).
 * @param {Site[]} sites
 * @param {DOMRect} r
 */
function fitScale(sites, r) {
  const [x0, y0, x1, y1] = extent(sites.flatMap(outlinePoints));
  return Math.min((r.width || 1) / (x1 - x0 + 2), (r.height || 1) / (y1 - y0 + 2));
}

/** @param {string} kind */
function kindMark(kind) {
  return kind.length <= 2 ? kind : capital(kind.slice(0, 2));
}

// ------------------------------------------------------------------------------ sites
/**
 * The typical distance between neighbouring sites (the median nearest one of a sample).
 * @param {Site[]} sites
 */
function typicalSpacing(sites) {
  /** @type {Point[]} */
  const centres = [...new Map(sites.map((s) => [`${s.x},${s.y}`, /** @type {Point} */ ([s.x, s.y])])).values()];
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

/**
 * ``fn`` of a board's sites, worked out once while they live (a café wall builds many boards of
 * the same sites).
 * @template V
 * @param {(sites: Site[]) => V} fn
 * @returns {(sites: Site[]) => V}
 */
function remembered(fn) {
  /** @type {WeakMap<Site[], V>} */
  const known = new WeakMap();
  return (sites) => {
    if (!known.has(sites)) known.set(sites, fn(sites));
    return /** @type {V} */ (known.get(sites));
  };
}

const spacingOf = remembered(typicalSpacing);
/** The sites in their parts side by side, and one above the other (arrangeParts). */
const partsOf = remembered((sites) => {
  const spaced = spacingOf(sites);
  return [arrangeParts(sites, spaced, false), arrangeParts(sites, spaced, true)];
});

/**
 * The sites split where a gap of half a spacing or more runs between them from top to bottom
 * (two hemispheres), each site given its ``part``; the parts after the first moved below the one
 * before (``stacked``) or beside it, far enough apart for both parts' coordinates between them.
 * A board in one part is returned as given.
 * @param {Site[]} sites @param {number} spacing @param {boolean} stacked @returns {Site[]}
 */
function arrangeParts(sites, spacing, stacked) {
  /** @param {Site} s */
  const span = (s) => {
    const xs = outlinePoints(s).map((p) => p[0]);
    return [Math.min(...xs), Math.max(...xs)];
  };
  const order = [...sites].sort((a, b) => span(a)[0] - span(b)[0]);
  /** @type {Site[][]} */
  const parts = [[]];
  let reach = -Infinity;
  for (const site of order) {
    const [lo, hi] = span(site);
    if (parts[0].length && lo > reach + spacing * 0.5) parts.push([]);
    parts[parts.length - 1].push(site);
    reach = Math.max(reach, hi);
  }
  if (parts.length < 2) return sites;
  /** @param {Site[]} part */
  const box = (part) => extent(part.flatMap(outlinePoints));
  /** @type {Map<string, Site>} */
  const moved = new Map();
  const first = box(parts[0]);
  let [right, bottom] = [first[2], first[1]];
  parts.forEach((part, n) => {
    const [px0, py0, px1, py1] = box(part);
    const [dx, dy] = !n ? [0, 0] : stacked ? [first[0] - px0, bottom - PART_GAP * spacing - py1]
      : [right + PART_GAP * spacing - px0, 0];
    for (const s of part) {
      moved.set(s.label, { ...s, x: s.x + dx, y: s.y + dy, part: n,
                           shape: s.shape.map(([x, y]) => [x + dx, y + dy]) });
    }
    [right, bottom] = [px1 + dx, py0 + dy];
  });
  return sites.map((s) => moved.get(s.label) || s);
}

/**
 * Each kind's colour: a side's or a colour's name as that colour, others from a palette.
 * @param {Drawing} drawing
 */
function kindColours(drawing) {
  /** @type {Map<string, string>} */
  const colours = new Map();
  const kinds = [...drawing.lines.map((l) => l.kind), ...Object.values(drawing.kinds)];
  for (const kind of kinds) {
    if (!colours.has(kind)) {
      const other = [...colours.keys()].filter((k) => !CSS.supports("color", k)).length;
      colours.set(kind, SIDE_COLOURS[kind] || (CSS.supports("color", kind) ? kind
        : KIND_PALETTE[other % KIND_PALETTE.length]));
    }
  }
  return colours;
}

/** @typedef {(site: Site, layers: Layers, spacing: number, squares: Set<string>) => Parts} Draw */

/**
 * A cell: its outline is its hit area, unless it is small beside the spacing (a point drawn as
 * a small ring): then a disc around it is, as for a point.
 * @type {Draw}
 */
function drawCell(site, layers, spacing) {
  const points = site.shape.map(pt).join(" ");
  const inner = Math.min(...site.shape.map(([x, y]) => Math.hypot(x - site.x, y - site.y)));
  const hits = layers.hits;
  const hit = !hits ? null : inner >= spacing * 0.35 ? svgEl("polygon", { points, class: "hit" }, hits)
    : svgEl("circle", { cx: site.x, cy: -site.y, r: spacing * 0.45, class: "hit" }, hits);
  return {
    site,
    cell: svgEl("polygon", { points, class: "cell" }, layers.cells),
    led: null,
    piece: null,
    makePiece: () => svgEl("circle", { cx: site.x, cy: -site.y, r: Math.min(inner * 0.62, spacing * 0.42),
                                       class: "piece" }, layers.pieces),
    hit,
  };
}

/**
 * A segment site (a rod's place): its track, and as its hit area the part of its square nearer
 * to it than to the segment crossing it (the two corner quarters its ends lie in), so a click
 * anywhere in the square lands on one of them.
 * @type {Draw}
 */
function drawSegment(site, layers, spacing, squares) {
  const [[ax, ay], [bx, by]] = site.shape;
  /** @param {number} u @returns {Point} */
  const along = (u) => [ax + u * (bx - ax), -(ay + u * (by - ay))];
  /** @param {number} u0 @param {number} u1 @param {string} cls @param {SVGGElement} parent */
  const line = (u0, u1, cls, parent) => {
    const [[x1, y1], [x2, y2]] = [along(u0), along(u1)];
    return svgEl("line", { x1, y1, x2, y2, class: cls }, parent);
  };
  const key = [Math.min(ax, bx), Math.max(ax, bx), Math.min(ay, by), Math.max(ay, by)].join();
  /** @type {SVGElement | null} */
  let cell = null, hit = null;
  if (ax !== bx && ay !== by) {
    if (!squares.has(key)) {   // a diagonal segment's bounding box is its square: shaded once
      squares.add(key);
      cell = svgEl("rect", { x: Math.min(ax, bx), y: -Math.max(ay, by), width: Math.abs(bx - ax),
                             height: Math.abs(by - ay), class: "cell square" }, layers.cells);
    }
    const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
    /** @param {Point} corner */
    const quarter = ([x, y]) => (/** @type {Point[]} */ ([[x, y], [mx, y], [mx, my], [x, my]])).map(pt).join(" ");
    if (layers.hits) {
      hit = svgEl("g", { class: "hit quarters" }, layers.hits);
      svgEl("polygon", { points: quarter([ax, ay]) }, hit);
      svgEl("polygon", { points: quarter([bx, by]) }, hit);
    }
  } else if (layers.hits) {
    hit = svgEl("g", { class: "hit" }, layers.hits);
    line(0.06, 0.94, "", hit);
  }
  line(0, 1, "track", layers.cells);
  return {
    site,
    cell,
    led: null,
    piece: null,
    makePiece: () => line(0.14, 0.86, "piece rod", layers.pieces),
    hit,
  };
}

/** A point site: a small dot, a disc its hit area. @type {Draw} */
function drawDot(site, layers, spacing) {
  const at = { cx: site.x, cy: -site.y };
  return {
    site,
    cell: svgEl("circle", { ...at, r: spacing * 0.12, class: "cell" }, layers.cells),
    led: null,
    piece: null,
    makePiece: () => svgEl("circle", { ...at, r: spacing * 0.3, class: "piece" }, layers.pieces),
    hit: layers.hits ? svgEl("circle", { ...at, r: spacing * 0.45, class: "hit" }, layers.hits) : null,
    radius: spacing * 0.42,   // a point's outline, when lit
  };
}

/**
 * A site's outline as a stroke (no fill: an outline never reads as a piece).
 * @param {Parts} parts
 * @param {Element} layer
 * @param {string} cls
 */
function outlineOf(parts, layer, cls) {
  const site = parts.site;
  if (site.shape.length >= 3) {
    return svgEl("polygon", { points: site.shape.map(pt).join(" "), class: cls }, layer);
  }
  if (site.shape.length === 2) {
    const [[ax, ay], [bx, by]] = site.shape;
    return svgEl("line", { x1: ax, y1: -ay, x2: bx, y2: -by, class: `${cls} on-segment` }, layer);
  }
  return svgEl("circle", { cx: site.x, cy: -site.y, r: parts.radius || 0, class: cls }, layer);
}

/**
 * A light's mark inside its site: the outline glowing, and a ring, cross, turn or tap sign.
 * @param {SVGGElement} node @param {Parts} parts @param {string | null} kind @param {number} spacing
 */
function drawMark(node, parts, kind, spacing) {
  node.replaceChildren();
  if (!kind) return;
  outlineOf(parts, node, "glow");
  const site = parts.site;
  const c = siteCentre(site);
  const inner = site.shape.length >= 3
    ? Math.min(...site.shape.map(([x, y]) => Math.hypot(x - c[0], y - c[1]))) : spacing * 0.4;
  const r = Math.min(inner * 0.62, spacing * 0.36);
  const [cx, cy] = [c[0], -c[1]];
  const mark = LIGHT_MARKS[kind] || "ring";
  svgEl("title", {}, node).textContent = `${site.label}: ${LIGHT_WORDS[kind] || kind}`;
  if (mark === "ring" || mark === "ring-plus" || mark === "tap") {
    svgEl("circle", { cx, cy, r, class: `mark ring${mark === "tap" ? " dashed" : ""}` }, node);
    if (mark === "ring") svgEl("circle", { cx, cy, r: r * 0.22, class: "mark dot" }, node);
  }
  if (mark === "back") {   // put back: a square with a plus (a ring with one is a twin)
    svgEl("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, class: "mark ring" }, node);
  }
  if (mark === "ring-plus" || mark === "back") {
    svgEl("path", { d: `M${cx - r * 0.5},${cy}H${cx + r * 0.5}M${cx},${cy - r * 0.5}V${cy + r * 0.5}`,
                    class: "mark line" }, node);
  }
  if (mark === "tap") svgEl("circle", { cx, cy, r: r * 0.4, class: "mark dot" }, node);
  if (mark === "cross") {
    const d = r * 0.7;
    svgEl("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}`,
                    class: "mark line" }, node);
  }
  if (mark === "clock") {   // the running clock is low: a clock face, its hands at ten to
    svgEl("circle", { cx, cy, r, class: "mark ring" }, node);
    svgEl("path", { d: `M${cx},${cy}V${cy - r * 0.7}M${cx},${cy}L${cx - r * 0.55},${cy - r * 0.2}`,
                    class: "mark line" }, node);
  }
  if (mark === "turn") {
    svgEl("path", { d: `M${cx + r},${cy} A${r},${r} 0 1 1 ${cx},${cy - r}`, class: "mark line" }, node);
    svgEl("polygon", { points: `${cx},${cy - r * 1.35} ${cx + r * 0.45},${cy - r} ${cx},${cy - r * 0.65}`,
                       class: "mark head" }, node);
  }
}

/** A row or column: the line it lies on. @typedef {{c: Point, d: Point, min: number, max: number}} Line */

/**
 * A label that may go at one end of a row or column.
 * @typedef {{text: string, kind: number, line: Line, end: number, t: number, far: number,
 *            half: number, slanted: boolean, id: string, part: number}} Label
 */

/**
 * Coordinates of every row and column: the sites sharing a label's letters (or its number) that
 * lie on one line get that letters (number) just outside the board beyond the line's ends,
 * whatever its direction (a hexagon's columns run slantwise). Each label stays clear of every
 * site and every other label; a slanted line's label stands only where no label of the other
 * kind is near (it would read as naming the other line) and has a leader along its line to the
 * site it names; every line keeps at least one. Labels on no such lines get none. Placed once
 * for a board's sites and a label size (every tile of a café wall playing one game has the same:
 * placing them is most of the time a board takes to build).
 * @param {Site[]} sites @param {number} spacing @param {number} size
 * @returns {Label[]}
 */
function coordinatesOf(sites, spacing, size) {
  const sizes = placedCoordinates.get(sites) || new Map();
  placedCoordinates.set(sites, sizes);
  const key = `${spacing} ${size}`;
  if (!sizes.has(key)) sizes.set(key, placeCoordinates(sites, spacing, size));
  return sizes.get(key);
}

/** Sites -> "spacing size" -> their coordinates placed (coordinatesOf). @type {WeakMap<Site[], Map<string, Label[]>>} */
const placedCoordinates = new WeakMap();

/** Where a placed label stands (board units, y upwards). @param {Label} l @returns {Point} */
const labelAt = (l) => [l.line.c[0] + l.t * l.line.d[0], l.line.c[1] + l.t * l.line.d[1]];

/**
 * The labels placed (coordinatesOf), drawn into ``layer``: each with a leader when slanted.
 * @param {Label[]} placed @param {SVGGElement} layer @param {number} spacing @param {number} size
 */
function drawCoordinates(placed, layer, spacing, size) {
  layer.replaceChildren();
  for (const l of placed) {
    const [x, y] = labelAt(l);
    if (l.slanted) {   // a leader from the line's last site to its label
      const from = l.end * (l.far + spacing * 0.12), to = l.t - l.end * size * 0.55;
      const [d0, d1] = l.line.d, [c0, c1] = l.line.c;
      if (Math.abs(to) > Math.abs(from)) {
        svgEl("line", { x1: c0 + from * d0, y1: -(c1 + from * d1), x2: c0 + to * d0, y2: -(c1 + to * d1),
                        class: "leader", "stroke-width": spacing * 0.03 }, layer);
      }
    }
    const text = svgEl("text", { x, y: -y, class: "coord", "font-size": size, "text-anchor": "middle",
                                 "dominant-baseline": "central" }, layer);
    text.textContent = l.text;
    text.dataset.line = l.id;
  }
}

/**
 * The coordinates' labels placed for ``sites`` at label size ``size`` (coordinatesOf).
 * @param {Site[]} sites @param {number} spacing @param {number} size
 * @returns {Label[]}
 */
function placeCoordinates(sites, spacing, size) {
  /** @type {Map<string, Site[]>[]} letters, numbers */
  const groups = [new Map(), new Map()];
  for (const site of sites) {
    const m = COORDINATES.exec(site.label);
    if (!m) continue;
    [m[1], m[2]].forEach((key, kind) => {
      const k = `${site.part || 0}:${key}`;  // a part drawn apart has its own lines
      const group = groups[kind].get(k) || [];
      groups[kind].set(k, group);
      group.push(site);
    });
  }
  /** @type {Map<number, Point[]>} each part's outline points */
  const outlines = new Map();
  for (const s of sites) {
    const own = outlines.get(s.part || 0) || [];
    outlines.set(s.part || 0, own);
    own.push(...outlinePoints(s));
  }
  /** @type {Label[][]} each line's two candidates */
  const candidates = [];
  groups.forEach((map, kind) => {
    const lines = [...map].map(([key, members]) => ({ key, line: lineOf(members, spacing), members }));
    if (lines.filter(({ line }) => line).length * 2 < lines.length) return;  // not rows or columns
    for (const { key, line, members } of lines) {
      if (!line) continue;
      const own = members.flatMap(outlinePoints);
      const text = key.split(":")[1];
      const slanted = Math.min(Math.abs(line.d[0]), Math.abs(line.d[1])) > 0.2;
      candidates.push([-1, 1].map((end) => {
        const far = labelReach(line, end, outlines.get(members[0].part || 0) || [], own, spacing);
        return { text, kind, line, end, far, part: members[0].part || 0, t: end * (far + size * 0.85 + (slanted ? spacing * 0.3 : 0)), slanted, id: `${kind}:${key}`,
                 half: size * 0.32 * text.length + size * 0.1 };
      }));
    }
  });
  /** @type {Label[]} */
  const placed = [];
  /** @param {Label} l */
  const clear = (l) => {
    const [x, y] = labelAt(l);
    if (overSite(x, y, l.half + size * 0.08, size * 0.55, sites, spacing)) return false;
    if (nearestPart(x, y, sites) !== l.part) return false;  // between two parts: its own
    return placed.every((p) => {
      const [u, v] = labelAt(p);
      const apart = Math.abs(u - x) >= p.half + l.half + size * 0.15 || Math.abs(v - y) >= size * 1.05;
      const plain = !l.slanted || p.kind === l.kind || Math.hypot(u - x, v - y) >= Math.max(spacing * 1.3, size * 2.2);
      return apart && plain;
    });
  };
  /** @param {Label} l @param {number} steps */
  const settle = (l, steps) => {
    const t0 = l.t;
    for (let n = 0; n <= steps; n++, l.t += l.end * size * 0.6) {
      if (clear(l)) return true;
    }
    l.t = t0;
    return false;
  };
  // Straight lines' labels first (rows across a hexagon), then the slanted ones where they fit;
  // a line left with none gets its clearer end, further out.
  const order = [...candidates].sort((a, b) => Number(a[0].slanted) - Number(b[0].slanted));
  for (const pair of order) {
    for (const l of pair) if (settle(l, l.slanted ? 2 : 6)) placed.push(l);
  }
  for (const pair of order) {
    if (pair.some((l) => placed.includes(l))) continue;
    const l = pair.find((c) => settle(c, 12)) || pair[0];
    placed.push(l);
  }
  return placed;
}

/**
 * Whether a box (centre x, y; half width w, half height h) covers part of a site: a point of it
 * inside a cell, or a point, segment or cell corner inside it.
 * @param {number} x @param {number} y @param {number} w @param {number} h @param {Site[]} sites
 * @param {number} spacing
 */
function overSite(x, y, w, h, sites, spacing) {
  /** @type {Point[]} */
  const probes = [];
  for (const u of [-1, -0.5, 0, 0.5, 1]) for (const v of [-1, 0, 1]) probes.push([x + u * w, y + v * h]);
  /** @param {Point} p */
  const inBox = ([px, py]) => Math.abs(px - x) <= w && Math.abs(py - y) <= h;
  for (const s of sites) {
    if (Math.abs(s.x - x) > w + spacing * 1.5 || Math.abs(s.y - y) > h + spacing * 1.5) continue;
    if (s.shape.length >= 3) {
      if (s.shape.some(inBox) || probes.some((p) => contains(s.shape, p))) return true;
    } else if (s.shape.length === 2) {
      const [[ax, ay], [bx, by]] = s.shape;
      for (let i = 0; i <= 8; i++) if (inBox([ax + (bx - ax) * i / 8, ay + (by - ay) * i / 8])) return true;
    } else if (Math.abs(s.x - x) <= w + spacing * 0.12 && Math.abs(s.y - y) <= h + spacing * 0.12) {
      return true;
    }
  }
  return false;
}

/** The part of the site nearest to (x, y). @param {number} x @param {number} y @param {Site[]} sites */
function nearestPart(x, y, sites) {
  let best = Infinity, part = 0;
  for (const s of sites) {
    const d = (s.x - x) ** 2 + (s.y - y) ** 2;
    if (d < best) [best, part] = [d, s.part || 0];
  }
  return part;
}

/**
 * Whether ``poly`` contains the point ``q`` (even-odd rule).
 * @param {Point[]} poly @param {Point} q
 */
export function contains(poly, [x, y]) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The line the sites lie on (centre, unit direction, their extent along it), or null when they
 * are fewer than two places or do not lie on one line.
 * @param {Site[]} sites @param {number} spacing @returns {Line | null}
 */
function lineOf(sites, spacing) {
  /** @type {Point[]} */
  const pts = [...new Map(sites.map((s) => [`${s.x},${s.y}`, /** @type {Point} */ ([s.x, s.y])])).values()];
  if (pts.length < 2) return null;
  const c = centreOf(pts);
  let [sxx, sxy, syy] = [0, 0, 0];
  for (const [x, y] of pts) {
    sxx += (x - c[0]) ** 2; sxy += (x - c[0]) * (y - c[1]); syy += (y - c[1]) ** 2;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  /** @type {Point} */
  const d = [Math.cos(angle), Math.sin(angle)];
  const off = pts.map(([x, y]) => Math.abs((x - c[0]) * d[1] - (y - c[1]) * d[0]));
  if (Math.max(...off) > spacing * 0.8) return null;
  const ts = pts.map(([x, y]) => (x - c[0]) * d[0] + (y - c[1]) * d[1]);
  return { c, d, min: Math.min(...ts), max: Math.max(...ts) };
}

/**
 * How far along a line from its centre, at its ``end`` (-1 or 1), its own sites and the sites
 * near the line (within a spacing: the next row's too) reach.
 * @param {Line} line @param {number} end @param {Point[]} outline @param {Point[]} own
 * @param {number} spacing
 */
function labelReach(line, end, outline, own, spacing) {
  const { c, d } = line;
  let far = end > 0 ? line.max : -line.min;
  /** @param {Point[]} pts @param {number} band */
  const reach = (pts, band) => {
    for (const [x, y] of pts) {
      const t = (x - c[0]) * d[0] + (y - c[1]) * d[1];
      const off = Math.abs((x - c[0]) * d[1] - (y - c[1]) * d[0]);
      if (off <= band && end * t > far) far = end * t;
    }
  };
  reach(own, Infinity);
  reach(outline, spacing);
  return far;
}

// ------------------------------------------------------------------------------ pieces
/**
 * One piece on one site: a stone, a token, a pawn or a rod.
 * @param {SVGGElement} g
 * @param {Site} site
 * @param {string} kind
 * @param {number} spacing
 */
function drawOne(g, site, kind, spacing) {
  const s = spacing;
  if (site.shape.length === 2) {
    const [[ax, ay], [bx, by]] = site.shape;
    /** @param {number} t @returns {Point} */
    const u = (t) => [ax + t * (bx - ax), -(ay + t * (by - ay))];
    const [[x1, y1], [x2, y2]] = [u(0.14), u(0.86)];
    svgEl("line", { x1, y1, x2, y2, class: "rod-edge" }, g);
    svgEl("line", { x1, y1, x2, y2, class: "rod" }, g);
    return;
  }
  const c = siteCentre(site);
  const inner = site.shape.length >= 3
    ? Math.min(...site.shape.map(([x, y]) => Math.hypot(x - c[0], y - c[1]))) : s * 0.5;
  const r = kind === "pawn" ? Math.min(inner * 0.95, s * 0.45) : Math.min(inner * 0.7, s * 0.42);
  const [cx, cy] = [site.x, -site.y];
  if (kind === "pawn") {   // a pawn: a base and a head, standing on whatever holds the site
    svgEl("ellipse", { cx, cy: cy + r * 0.35, rx: r * 0.62, ry: r * 0.3, class: "body" }, g);
    svgEl("path", { d: `M${cx - r * 0.34},${cy + r * 0.35} L${cx - r * 0.16},${cy - r * 0.2} ` +
                       `L${cx + r * 0.16},${cy - r * 0.2} L${cx + r * 0.34},${cy + r * 0.35} Z`,
                    class: "body" }, g);
    svgEl("circle", { cx, cy: cy - r * 0.38, r: r * 0.3, class: "body" }, g);
    return;
  }
  svgEl("circle", { cx, cy, r, class: "body" }, g);
  if (kind === "token") svgEl("circle", { cx, cy, r: r * 0.6, class: "face" }, g);
}

/**
 * A piece over several sites: its sites filled, its outline (the edges no two of its sites
 * share) drawn strong and set a little inside, so that two pieces side by side read as two.
 * @param {SVGGElement} g @param {Parts[]} parts @param {number} spacing
 */
function drawOutline(g, parts, spacing) {
  /** @param {Point} p */
  const key = ([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`;
  /** @type {Map<string, [Point, Point] | null>} */
  const edges = new Map();
  const c = centreOf(parts.map((p) => centreOf(p.site.shape)));
  /** @param {Point} p @returns {Point} */
  const inset = ([x, y]) => {
    const d = Math.hypot(x - c[0], y - c[1]) || 1;
    const k = Math.min(spacing * 0.07, d * 0.2) / d;
    return [x + (c[0] - x) * k, y + (c[1] - y) * k];
  };
  for (const { site } of parts) {
    const pts = site.shape;
    svgEl("polygon", { points: pts.map((p) => pt(inset(p))).join(" "), class: "fill" }, g);
    for (let i = 0; i < pts.length; i++) {
      const [a, b] = [pts[i], pts[(i + 1) % pts.length]];
      const k = [key(a), key(b)].sort().join("|");
      edges.set(k, edges.has(k) ? null : [a, b]);
    }
  }
  for (const edge of edges.values()) {
    if (!edge) continue;
    const [[x1, y1], [x2, y2]] = edge.map(inset);
    svgEl("line", { x1, y1: -y1, x2, y2: -y2, class: "outline" }, g);
  }
}

/**
 * The daemon dims colours by its brightness setting: show the hue at full strength and the
 * brightness as opacity, so that a dimmed LED still reads on a screen.
 * @param {string} hex "#rrggbb"
 */
function full(hex) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const top = Math.max(...rgb, 1);
  return `rgb(${rgb.map((c) => Math.round((c * 255) / top)).join(",")})`;
}

/**
 * A colour's relative luminance, 0..1 (0.5 for a colour not written "#rrggbb").
 * @param {string} colour
 */
function lightness(colour) {
  if (!/^#[0-9a-f]{6}$/i.test(colour)) return 0.5;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** @param {string} hex "#rrggbb" */
function dimness(hex) {
  const top = Math.max(...[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  return 0.55 + 0.45 * (top / 255);
}

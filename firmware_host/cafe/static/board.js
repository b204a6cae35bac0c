// A board's miniature on a canvas, drawn from its sites (the engine's geometry, served by the
// dashboard) and what stands on them: shared by the live tiles and the archive's replay.
"use strict";

// Pieces in their side's colour; the last move's sites get a yellow edge (LAST_MOVE).
const SIDE_COLOURS = { white: "#f4f1ea", black: "#2b2b2b", red: "#c62828", blue: "#1e4fc2",
  green: "#2e7d32", yellow: "#e0b000" };
const LAST_MOVE = "#ffd54a";
const TO_FILL = "#f0a030", TO_EMPTY = "#e5534b";

// view: {pieces, changed, sides, figures, missing, extra} (site labels). The canvas is sized
// to its box once (reading a box lays the page out) and again after ``resized()``.
function drawBoard(canvas, sites, view) {
  const ctx = canvas.getContext("2d");
  if (!canvas.dataset.sized) {
    const size = Math.round(canvas.clientWidth * devicePixelRatio) || canvas.width;
    if (canvas.width !== size) canvas.width = canvas.height = size;
    canvas.dataset.sized = "1";
  }
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!sites || !sites.length) return;
  const points = sites.flatMap((s) => (s.shape.length ? s.shape : [[s.x, s.y]]));
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(x1 - x0, y1 - y0) || 1;
  const pad = canvas.width * 0.06;
  const k = (canvas.width - 2 * pad) / span;
  const X = (x) => pad + (x - x0) * k + ((span - (x1 - x0)) * k) / 2;
  const Y = (y) => pad + (y1 - y) * k + ((span - (y1 - y0)) * k) / 2;
  const unit = spacingOf(sites) * k;
  const byLabel = new Map(sites.map((s) => [s.label, s]));
  ctx.fillStyle = "#c8a56e";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineWidth = Math.max(1, unit * 0.05);
  ctx.strokeStyle = "#7a5b2e";
  for (const s of sites) {
    ctx.beginPath();
    if (s.shape.length >= 2) {
      tracePath(ctx, s.shape, X, Y);
    } else {
      ctx.arc(X(s.x), Y(s.y), unit * 0.1, 0, 2 * Math.PI);
    }
    ctx.stroke();
  }
  const pieces = new Set(view.pieces || []), changed = new Set(view.changed || []);
  const sides = view.sides || {};
  const colour = (label) => SIDE_COLOURS[sides[label]] || "#2b2b2b";
  const missing = new Set(view.missing || []), extra = new Set(view.extra || []);
  // Pieces over areas (polygons) are drawn whole: each figure's sites filled and outlined.
  const drawn = new Set();
  for (const figure of view.figures || []) {
    const parts = figure.sites.map((l) => byLabel.get(l)).filter((s) => s && s.shape.length >= 3);
    if (!parts.length || !figure.sites.every((l) => pieces.has(l))) continue;
    ctx.fillStyle = SIDE_COLOURS[figure.side] || "#2b2b2b";
    for (const s of parts) {
      ctx.beginPath();
      tracePath(ctx, s.shape, X, Y);
      ctx.fill();
      drawn.add(s.label);
    }
    ctx.lineWidth = Math.max(1.5, unit * 0.08);
    ctx.strokeStyle = figure.sites.some((l) => changed.has(l)) ? LAST_MOVE : "#111";
    for (const [a, b] of outline(parts)) {
      ctx.beginPath();
      ctx.moveTo(X(a[0]), Y(a[1]));
      ctx.lineTo(X(b[0]), Y(b[1]));
      ctx.stroke();
    }
  }
  for (const s of sites) {
    const mark = missing.has(s.label) ? TO_FILL : extra.has(s.label) ? TO_EMPTY : null;
    if ((!pieces.has(s.label) || drawn.has(s.label)) && !mark) continue;
    ctx.beginPath();
    if (s.shape.length === 2) {
      const [[ax, ay], [bx, by]] = s.shape;
      ctx.moveTo(X(ax + 0.15 * (bx - ax)), Y(ay + 0.15 * (by - ay)));
      ctx.lineTo(X(bx - 0.15 * (bx - ax)), Y(by - 0.15 * (by - ay)));
      if (changed.has(s.label) && !mark) {  // the last move: a yellow edge under the rod
        ctx.lineWidth = unit * 0.36;
        ctx.strokeStyle = LAST_MOVE;
        ctx.stroke();
      }
      ctx.lineWidth = unit * 0.25;
      ctx.strokeStyle = mark || colour(s.label);
      ctx.stroke();
      continue;
    }
    if (s.shape.length >= 3 && mark) {
      tracePath(ctx, s.shape, X, Y);
    } else {
      ctx.arc(X(s.x), Y(s.y), unit * 0.36, 0, 2 * Math.PI);
    }
    if (pieces.has(s.label) && !drawn.has(s.label)) {
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

// The page's size changed: every canvas is sized again at its next drawing.
function resized() {
  document.querySelectorAll("canvas[data-sized]").forEach((c) => delete c.dataset.sized);
}

function tracePath(ctx, shape, X, Y) {
  shape.forEach(([x, y], i) => (i ? ctx.lineTo(X(x), Y(y)) : ctx.moveTo(X(x), Y(y))));
  if (shape.length > 2) ctx.closePath();
}

// The edges of a figure's polygons that no two of them share: its outline.
function outline(parts) {
  const key = ([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`;
  const edges = new Map();
  for (const s of parts) {
    for (let i = 0; i < s.shape.length; i++) {
      const [a, b] = [s.shape[i], s.shape[(i + 1) % s.shape.length]];
      const k = [key(a), key(b)].sort().join("|");
      edges.set(k, edges.has(k) ? null : [a, b]);
    }
  }
  return [...edges.values()].filter(Boolean);
}

const spacings = new WeakMap();
function spacingOf(sites) {
  if (!spacings.has(sites)) spacings.set(sites, boardSpacing(sites));
  return spacings.get(sites);
}

// The typical distance between neighbouring sites (the median nearest one of a sample).
function boardSpacing(sites) {
  const c = sites.slice(0, 64);
  const near = c.map((a) => Math.min(...sites.filter((b) => b !== a && (b.x !== a.x || b.y !== a.y))
    .map((b) => Math.hypot(b.x - a.x, b.y - a.y))));
  near.sort((a, b) => a - b);
  return near[Math.floor(near.length / 2)] || 1;
}

// @ts-check
// What the league's pages share: building elements and showing points and ratings.

/** A new element with its text and class. */
export function el(tag, text = "", cls = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** Empty ``parent`` and put ``children`` in it. */
export function fill(parent, children) {
  parent.replaceChildren(...children);
}

/** Points as a score sheet writes them: 1-0, ½-½, 2½. */
export function points(list) {
  return list.map((x) => {
    const whole = Math.floor(x);
    const half = Math.abs(x - whole - 0.5) < 1e-9;
    if (half) return whole ? `${whole}½` : "½";
    return Number.isInteger(x) ? String(x) : x.toFixed(2);
  }).join("-");
}

/** A rating with its uncertainty: "27.6 ± 8.1" (none yet: "–"). */
export function rating(r) {
  return r ? `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}` : "–";
}

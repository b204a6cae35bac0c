// @ts-check
// The time controls a new game may name: the one list the board's menu offers too, served as
// /controls.json by both apps, filled into every select marked `data-controls` (after its own
// first option, "as it is"), in the page and in its templates (copied later).

import { t } from "./i18n.js";

/** Fill the page's `select[data-controls]` with the time controls (none when they cannot be
 * read: the select offers "as it is" alone). */
export async function loadControls() {
  /** @type {{control: string, label: string}[]} */
  let controls = [];
  try {
    const answer = await fetch("/controls.json");
    controls = (await answer.json()).controls || [];
  } catch { /* none offered */ }
  const roots = [document, ...Array.from(document.querySelectorAll("template"), (template) => template.content)];
  for (const root of roots) {
    for (const select of root.querySelectorAll("select[data-controls]")) {
      select.append(...controls.map(({ control, label }) => new Option(t(label), control)));
    }
  }
}

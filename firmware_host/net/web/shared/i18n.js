// @ts-check
// The pages' words in the reader's language: the catalogue /i18n.json serves (the board's
// language, or the one chosen on the page, kept in this browser), `t("...")` for the words a
// script writes, and `translate(root)` for the words of the markup: an element marked
// `data-i18n` is translated whole (its inner HTML one message), any other text and the labels
// (aria-label, title, alt) piece by piece. English is the messages themselves.

/** The key this browser keeps the page's language under. */
const KEY = "reedboard-language";
/** @type {Record<string, string>} */
let words = {};
/** The language the page speaks, and the ones it could. */
export const speech = { language: "en", /** @type {Record<string, string>} */ languages: { en: "English" } };

/** Load the page's words (the language chosen here, else the board's) and translate the page. */
export async function load() {
  let chosen = "";
  try { chosen = localStorage.getItem(KEY) || ""; } catch { /* storage off: the board's language */ }
  try {
    const answer = await fetch("/i18n.json?lang=" + encodeURIComponent(chosen));
    const found = await answer.json();
    words = found.words || {};
    speech.language = found.language;
    speech.languages = found.languages;
  } catch { /* no catalogue: English */ }
  document.documentElement.lang = speech.language;
  document.title = t(message(document.title));
  translate(document.body);
  for (const template of document.querySelectorAll("template")) {  // what the page copies later
    for (const element of template.content.children) translate(element);
  }
}

/** Speak ``code`` on this page from now on (kept in this browser), reloading it. */
export function choose(/** @type {string} */ code) {
  try { localStorage.setItem(KEY, code); } catch { /* kept for this visit only */ }
  location.reload();
}

/**
 * ``text`` in the page's language, its ``{name}`` placeholders filled from ``values``.
 * @param {string} text
 * @param {Record<string, string | number | boolean>} [values]
 */
export function t(text, values) {
  const said = words[text] || text;
  return values ? said.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : said;
}

/** The message a piece of markup is: its words with their spaces made single. */
const message = (/** @type {string} */ text) => text.replace(/\s+/g, " ").trim();

/** Translate the markup under ``root``: `data-i18n` elements whole, else text and labels. */
export function translate(/** @type {Element} */ root) {
  for (const element of [root, ...root.querySelectorAll("*")]) {
    for (const name of ["aria-label", "title", "alt"]) {
      const label = element.getAttribute(name);
      if (label && words[message(label)]) element.setAttribute(name, words[message(label)]);
    }
    if (element.hasAttribute("data-i18n")) {
      const html = words[message(element.innerHTML)];
      if (html) element.innerHTML = html;
    } else if (!element.closest("[data-i18n]")) {
      for (const node of element.childNodes) {
        const raw = node.nodeType === Node.TEXT_NODE ? node.textContent || "" : "";
        const said = words[message(raw)];
        if (said) node.textContent = raw.replace(/^(\s*)[\s\S]*?(\s*)$/, (_, lead, tail) => lead + said + tail);
      }
    }
  }
}

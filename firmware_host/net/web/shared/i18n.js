// @ts-check
// The pages' words in the reader's language: the catalogue /i18n.json serves (the board's
// language, or the one chosen on the page, kept in this browser), `t("...")` for the words a
// script writes (`ngettext(...)` for a count's), the sides' and the seated players' names both
// apps show, and `translate(root)` for the words of the markup: an element marked
// `data-i18n` is translated whole (its inner HTML one message), any other text and the labels
// (aria-label, title, alt) piece by piece. English is the messages themselves.

/** The key this browser keeps the page's language under. */
const KEY = "reedboard-language";
/** @type {Record<string, string>} */
let words = {};
/** The counts' words, by the singular: the language's plural forms (gettext's order). */
/** @type {Record<string, string[]>} */
let plurals = {};
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
    plurals = found.plurals || {};
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
  return fill(words[text] || text, values);
}

/**
 * The words for ``n`` things in the page's language: ``singular`` or ``plural`` (English's
 * forms), as the language's plural rule picks among its forms; placeholders as `t`'s, ``{n}``
 * among them.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, string | number | boolean>} [values]
 */
export function ngettext(singular, plural, n, values) {
  const forms = plurals[singular] || [singular, plural];
  const one = pluralRules(speech.language).select(n) === "one";
  return fill(forms[one ? 0 : forms.length - 1], { n, ...values });
}

/** @type {Map<string, Intl.PluralRules>} */
const rules = new Map();

/** A language's plural rule, made once (making one costs more than the words it picks). */
function pluralRules(/** @type {string} */ language) {
  let rule = rules.get(language);
  if (!rule) rules.set(language, rule = new Intl.PluralRules(language));
  return rule;
}

/** ``said`` with its ``{name}`` placeholders filled from ``values``. */
function fill(/** @type {string} */ said, /** @type {Record<string, string | number | boolean>} */ values = {}) {
  return said.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** A side (or a colour) by its name in the page's language, with a capital. */
export function sideName(/** @type {string} */ side) {
  const name = t(side);
  return name ? name[0].toUpperCase() + name.slice(1) : "";
}

/**
 * Who plays ``side``: the name of the player at its seat (``players`` in the order of
 * ``sides``), else the side's name.
 * @param {string[] | undefined} players
 * @param {string[] | undefined} sides
 * @param {string} side
 */
export function seatName(players, sides, side) {
  return (players || [])[(sides || []).indexOf(side)] || sideName(side);
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

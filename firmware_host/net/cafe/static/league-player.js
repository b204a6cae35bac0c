// @ts-check
// A player's page: their league games and their rating after each rated game, by game and size.
import { load, t } from "../shared/i18n.js";
import { el, fill, points, rating } from "./league-common.js";

await load(); // the page's words in the dashboard's language

const name = decodeURIComponent(location.pathname.split("/").pop());
const response = await fetch(`/api/league/players/${encodeURIComponent(name)}`);
if (response.ok) {
  const data = await response.json();
  document.getElementById("name").textContent = data.name + (data.tag ? ` [${data.tag}]` : "");
  const rows = [];
  for (const [game, history] of Object.entries(data.ratings)) {
    for (const step of history) {
      const tr = el("tr");
      tr.append(el("td", game), el("td", step.event), el("td", String(step.round)), el("td", rating(step)));
      rows.push(tr);
    }
  }
  fill(document.getElementById("ratings"), rows);
  fill(document.getElementById("games"), data.games.map((g) => {
    const tr = el("tr");
    const against = g.bye ? t("bye") : g.opponents.join(", ") + (g.forfeit ? " " + t("(forfeit)") : "");
    tr.append(el("td", g.event), el("td", String(g.round)), el("td", String(g.table)), el("td", against),
      el("td", g.points === null ? "–" : points([g.points])));
    return tr;
  }));
} else {
  document.getElementById("name").textContent = (await response.text()).trim();
}

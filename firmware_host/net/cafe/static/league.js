// @ts-check
// The café wall's league page: the round's tables with their live state and results, and the
// standings, read from /api/league every 2 s.
import { load, t } from "../shared/i18n.js";
import { el, fill, points, rating } from "./league-common.js";

await load(); // the wall's words in the dashboard's language

async function refresh() {
  const response = await fetch("/api/league" + location.search);
  if (!response.ok) return;
  const data = await response.json();
  document.getElementById("none").hidden = Boolean(data.event);
  if (!data.event) return;
  document.getElementById("event").textContent = data.event.name;
  document.getElementById("round").textContent = t("Round {round} of {rounds}", { round: data.round, rounds: data.event.rounds });
  fill(document.getElementById("tables"), data.tables.map(tableItem));
  const head = ["", t("Player"), t("Points"), ...data.event.tiebreaks.map(label), t("Rating")];
  fill(document.getElementById("standings-head"), head.map((h) => el("th", h)));
  fill(document.getElementById("standings"), data.standings.map((row) => standingRow(row, data.event)));
  document.getElementById("updated").textContent = t("updated {time}", { time: data.now }); // the café's time
}

function tableItem(table) {
  const item = el("li", "", table.bye ? "table bye" : "table");
  item.append(el("span", table.bye ? t("Bye") : t("Table {table}", { table: table.table }), "number"));
  item.append(el("span", table.names.join(" – "), "names"));
  item.append(el("span", result(table), table.points ? "result done" : "result"));
  return item;
}

/** A table's result, else its board's state line while it plays the table, else "waiting". */
function result(table) {
  if (table.points) return points(table.points) + (table.forfeit ? " " + t("(forfeit)") : "");
  if (table.bye) return "";
  return table.status || (table.playing ? t("playing") : t("waiting"));
}

function standingRow(row, event) {
  const tr = el("tr", "", row.withdrawn ? "withdrawn" : "");
  tr.append(el("td", String(row.rank)), el("td", row.name + (row.withdrawn ? " " + t("(withdrawn)") : "")));
  tr.append(el("td", points([row.points])));
  for (const t of event.tiebreaks) tr.append(el("td", row[t] === null ? "–" : points([row[t]])));
  tr.append(el("td", rating(row.rating)));
  return tr;
}

function label(tiebreak) {
  return { buchholz: t("Buchholz"), "sonneborn-berger": t("S-B"), "direct-encounter": t("Direct") }[tiebreak] || tiebreak;
}

refresh();
setInterval(refresh, 2000);

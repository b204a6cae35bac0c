// @ts-check
// The café wall's league page: the round's tables with their live state and results, and the
// standings, read from /api/league every 2 s.
import { el, fill, points, rating } from "./league-common.js";

async function refresh() {
  const response = await fetch("/api/league" + location.search);
  if (!response.ok) return;
  const data = await response.json();
  document.getElementById("none").hidden = Boolean(data.event);
  if (!data.event) return;
  document.getElementById("event").textContent = data.event.name;
  document.getElementById("round").textContent = `Round ${data.round} of ${data.event.rounds}`;
  fill(document.getElementById("tables"), data.tables.map(tableItem));
  const head = ["", "Player", "Points", ...data.event.tiebreaks.map(label), "Rating"];
  fill(document.getElementById("standings-head"), head.map((h) => el("th", h)));
  fill(document.getElementById("standings"), data.standings.map((row) => standingRow(row, data.event)));
  document.getElementById("updated").textContent = `updated ${data.now}`; // the café's time
}

function tableItem(t) {
  const item = el("li", "", t.bye ? "table bye" : "table");
  item.append(el("span", t.bye ? "Bye" : `Table ${t.table}`, "number"));
  item.append(el("span", t.names.join(" – "), "names"));
  const result = t.points ? points(t.points) + (t.forfeit ? " (forfeit)" : "") : t.bye ? "" : t.status || "playing";
  item.append(el("span", result, t.points ? "result done" : "result"));
  return item;
}

function standingRow(row, event) {
  const tr = el("tr", "", row.withdrawn ? "withdrawn" : "");
  tr.append(el("td", String(row.rank)), el("td", row.name + (row.withdrawn ? " (withdrawn)" : "")));
  tr.append(el("td", points([row.points])));
  for (const t of event.tiebreaks) tr.append(el("td", row[t] === null ? "–" : points([row[t]])));
  tr.append(el("td", rating(row.rating)));
  return tr;
}

function label(tiebreak) {
  return { buchholz: "Buchholz", "sonneborn-berger": "S-B", "direct-encounter": "Direct" }[tiebreak] || tiebreak;
}

refresh();
setInterval(refresh, 2000);

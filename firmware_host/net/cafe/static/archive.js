// @ts-check
// The archive: a table's finished games (/tables/<id>), and one game replayed move by move
// (/tables/<id>/games/<key>) on a board drawn as every board is (/shared/board.js), with its
// record to download. An ES module.
import { Board, lastMove } from "../shared/board.js";
import { load, t } from "../shared/i18n.js";

await load();  // the archive's words in the dashboard's language

/** The page's element ``id`` (its own markup: any element). @type {(id: string) => any} */
const $ = (id) => document.getElementById(id);
const [, , board, , key] = location.pathname.split("/").map(decodeURIComponent);
const api = `/api/tables/${encodeURIComponent(board)}/games`;

async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

function cell(row, text) {
  const td = document.createElement("td");
  if (text instanceof Node) td.append(text); else td.textContent = text ?? "";
  row.append(td);
  return td;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

// Games a page of the list shows (the API's page).
const PAGE = 200;

async function showList() {
  const offset = Number(new URLSearchParams(location.search).get("offset")) || 0;
  const data = await getJson(`${api}?offset=${offset}`);
  document.title = `reedboard café · ${data.name}`;
  $("where").textContent = t("{table}: finished games", { table: data.name });
  const base = `/tables/${encodeURIComponent(board)}/games/`;
  $("list").querySelector("tbody").replaceChildren(...data.games.map((g) => {
    const row = document.createElement("tr");
    row.dataset.key = g.key;
    cell(row, g.when);
    cell(row, [g.game, g.size, g.variant].filter(Boolean).join(" "));
    cell(row, g.result);
    cell(row, g.plies);
    cell(row, (g.players || []).join(" – "));
    cell(row, g.league_event ? `${g.league_event} · round ${g.league_round} · table ${g.league_table}` : "");
    cell(row, g.opponent);
    const actions = cell(row, link(base + encodeURIComponent(g.key), t("replay")));
    actions.append(" · ", link(`${base}${encodeURIComponent(g.key)}.txt`, t("download")));
    return row;
  }));
  $("none").hidden = data.games.length > 0 || offset > 0;
  const older = $("older");
  older.hidden = data.games.length < PAGE;
  older.href = `?offset=${offset + PAGE}`;
  $("list").hidden = false;
}

async function showReplay() {
  const game = await getJson(`${api}/${encodeURIComponent(key)}`);
  document.title = `reedboard café · ${board} · ${game.title}`;
  $("where").append(link(`/tables/${encodeURIComponent(board)}`, board),
    ` · ${game.title} · ${(game.players || []).join(" – ")} · ${game.result ?? ""}`);
  $("record").textContent = game.text;
  $("download").href = `/tables/${encodeURIComponent(board)}/games/${encodeURIComponent(key)}.txt`;
  const slider = $("step");
  slider.max = game.steps.length - 1;
  $("replay").hidden = false;  // laid out before the board is drawn in it
  const drawn = new Board(document.querySelector("#replay .mini"), { interactive: false });
  drawn.sides = game.sides;
  drawn.build(game.sites, game.drawing);
  const show = (n) => {
    n = Math.max(0, Math.min(game.steps.length - 1, n));
    slider.value = n;
    const step = game.steps[n];
    drawn.showFigures(step.figures);
    drawn.showPieces(step.pieces);
    drawn.showLast(lastMove(step.changed, step.pieces));
    const clock = step.clock ? " · " + t("{time} left", { time: step.clock }) : "";  // the mover's clock
    $("step-text").textContent = n
      ? t("Move {n} of {count}: {move}", { n, count: game.steps.length - 1, move: step.move }) + clock
      : t("The start");
    document.body.dataset.step = n;
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").onclick = () => show(0);
  $("back").onclick = () => show(Number(slider.value) - 1);
  $("next").onclick = () => show(Number(slider.value) + 1);
  $("last").onclick = () => show(game.steps.length - 1);
  addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(Number(slider.value) + 1);
    if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
  });
  show(game.steps.length - 1);
}

(key ? showReplay() : showList()).catch((error) => {
  $("problem").textContent = error.message;
  $("problem").hidden = false;
});

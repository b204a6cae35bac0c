// @ts-check
// The arbiter's desk: each form posts its action as JSON to /api/league/<action> (with the
// page's token), says the answer, and reads the league again.
import { load, ngettext, t } from "../shared/i18n.js";
import { el, fill, points } from "./league-common.js";

await load(); // the desk's words in the dashboard's language

const params = new URLSearchParams(location.search);
const query = params.get("token") ? `?token=${encodeURIComponent(params.get("token"))}` : "";
let current = null;

function say(text, bad = false) {
  const said = document.getElementById("said");
  said.textContent = text;
  said.className = bad ? "said bad" : "said";
}

async function act(action, body) {
  const response = await fetch(`/api/league/${action}${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang },
    body: JSON.stringify(body),
  });
  const answer = response.headers.get("Content-Type")?.includes("json") ? await response.json() : { error: await response.text() };
  if (answer.ok) say(answer.said); else say(answer.error || t("refused ({status})", { status: response.status }), true);
  await refresh();
}

async function refresh() {
  const data = await (await fetch("/api/league")).json();
  current = data;
  const chosen = /** @type {HTMLSelectElement} */ (document.getElementById("games"));
  if (!chosen.options.length) fill(chosen, data.games.map((g) => el("option", g)));
  document.getElementById("event").textContent = data.event
    ? t("{event} · round {round} of {rounds}", { event: data.event.name, round: data.round, rounds: data.event.rounds })
    : t("no event yet");
  fill(document.getElementById("players"), data.players.map((p) => el("option", p.name)));
  fill(document.getElementById("roster"), data.players.map((p) => {
    const item = el("li");
    const link = el("a", p.name);
    link.href = `/league/players/${encodeURIComponent(p.name)}`;
    item.append(link);
    return item;
  }));
  const entries = Object.entries(data.entries || {}).filter(([, out]) => !out).map(([name]) => name);
  fill(document.getElementById("entered"), entries.map((n) => el("option", n)));
  fill(document.getElementById("bye-player"), entries.map((n) => el("option", n)));
  const tables = (data.tables || []).filter((t) => !t.bye);
  fill(document.getElementById("open-tables"), tables.map((t) => {
    const option = el("option", `${t.table}: ${t.names.join(" – ")}${t.points ? " (" + points(t.points) + ")" : ""}`);
    option.value = t.table;
    return option;
  }));
  const open = tables.filter((t) => !t.points).length;
  document.getElementById("round-state").textContent = data.event
    ? ngettext("{open} of {n} table without a result", "{open} of {n} tables without a result", tables.length, { open })
    : "";
}

const forms = {
  new: (f) => Object.fromEntries(new FormData(f)),
  player: (f) => Object.fromEntries(new FormData(f)),
  register: (f) => ({ names: [...f.names.selectedOptions].map((o) => o.value), event: current?.event?.name }),
  result: (f) => ({ ...Object.fromEntries(new FormData(f)), event: current?.event?.name }),
  withdraw: (f) => ({ name: f.name.value, event: current?.event?.name }),
  bye: (f) => ({ name: f.name.value, points: Number(f.points.value), event: current?.event?.name }),
  pair: (f, submitter) => ({ again: submitter?.name === "again", event: current?.event?.name }),
};
for (const [action, read] of Object.entries(forms)) {
  document.getElementById(action).addEventListener("submit", (event) => {
    event.preventDefault();
    act(action, read(event.target, event.submitter));
  });
}
refresh();

// The live pages of `ginscore serve`. Every name and note from the file is put on the page as text
// (textContent, never as markup); the documents arrive as server-sent events, one per change.
"use strict";

const ROLE_WORDS = { box: "in the box, deals", captain: "captain", out: "sits out" };

function el(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined && text !== null) made.textContent = String(text);
  return made;
}

function fill(id, ...children) {
  const place = document.getElementById(id);
  place.replaceChildren(...children);
  return place;
}

function tokenQuery() {
  const token = new URLSearchParams(window.location.search).get("token");
  return token === null ? "" : "?token=" + encodeURIComponent(token);
}

function notice(text, kind) {
  const box = document.getElementById("notice");
  box.hidden = !text;
  box.textContent = text || "";
  box.dataset.kind = kind || "";
  document.body.classList.toggle("stale", Boolean(text));
}

// A word under each name: who deals next, the three-player role, or who won.
function roleWords(status) {
  const words = {};
  if (status.over) {
    if (status.winner) words[status.winner] = "wins";
  } else if (status.roles) {
    for (const [role, name] of Object.entries(status.roles)) words[name] = ROLE_WORDS[role];
  } else if (status.next_dealer) {
    words[status.next_dealer] = "deals next";
  }
  return words;
}

function score(value, player, game, className) {
  const shown = el("span", className, value);
  shown.dataset.player = player;
  shown.dataset.game = String(game);
  shown.dataset.score = String(value);
  return shown;
}

// Two or three players side by side, each with their total large (not Hollywood).
function playerCards(status) {
  const words = roleWords(status);
  const cards = el("div", status.players.length === 3 ? "players of-three" : "players");
  for (const player of status.players) {
    const card = el("div", "player");
    if (status.winner === player) card.classList.add("winner");
    if (status.roles && status.roles.out === player) card.classList.add("sitting-out");
    card.append(el("div", "name", player), el("div", "role", words[player] || "\u00a0"),
                score(status.totals[player], player, 1, "total"),
                el("div", "won", status.hands_won[player] + (status.hands_won[player] === 1 ? " hand" : " hands") + " won"));
    if (status.final && status.final[player] !== status.totals[player]) {
      card.append(el("div", "final", "final " + status.final[player]));
    }
    cards.append(card);
  }
  return cards;
}

// Hollywood's three games as columns, a player a row, with who is on each game (R18).
function hollywoodTable(status, on, compact) {
  const words = roleWords(status);
  const table = el("table", compact ? "games compact" : "games");
  const head = el("tr");
  head.append(el("th", "corner", ""));
  for (const game of status.games) head.append(el("th", "", compact ? "G" + game.game : "Game " + game.game));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const player of status.players) {
    const row = el("tr");
    const name = el("th", "name-cell");
    name.append(el("div", "name", player));
    if (!compact) name.append(el("div", "role", words[player] || ""));
    row.append(name);
    status.games.forEach((game, index) => {
      const cell = el("td", "game-cell");
      const isOn = on ? on[index].includes(player) : true;
      cell.classList.toggle("not-on", !isOn);
      if (game.winner === player) cell.classList.add("won");
      cell.append(score(game.scores[player], player, game.game, "total"));
      if (!compact) cell.append(el("div", "state", game.winner === player ? "won" : isOn ? "on" : "not on"));
      row.append(cell);
    });
    table.tBodies[0].append(row);
  }
  return table;
}

// The file the page reads, and what keeps it from being read (the board stays, greyed, until it can be).
function fileProblem(doc) {
  document.getElementById("file").textContent = doc.file;
  notice(doc.problem ? doc.problem + " Still watching: the board comes back as soon as the file can be read." : "",
         "problem");
  return Boolean(doc.problem);
}

function renderSession(doc) {
  if (fileProblem(doc)) return;
  const status = doc.status;
  document.title = status.session + " · ginscore";
  fill("title", status.session);
  const played = status.hands_played + (status.hands_played === 1 ? " hand" : " hands") + " played";
  fill("subtitle", el("span", "", doc.variant_name + " · " + status.players.join(" v ") + " · " + played),
       el("br"), el("span", "rules", "House rules: " + doc.house_rules.join("; ")));
  fill("board", status.variant === "hollywood" ? hollywoodTable(status, doc.on, false) : playerCards(status));
  fill("words", ...status.state_of_play.map((line) => el("p", "state-of-play", line)));
  const result = [];
  if (doc.winner_words) result.push(el("p", "winner-words", doc.winner_words));
  for (const line of doc.settlement_words) result.push(el("p", "settlement", line));
  if (status.match) {
    const games = Object.entries(status.match.games_won).map(([p, n]) => p + " " + n).join(", ");
    result.push(el("p", "match", "Match of " + status.match.sessions.length + " sessions, games won: " + games));
  }
  fill("result", ...result);
  const hands = fill("hands");
  if (doc.last_hands.length) {
    hands.append(el("h2", "", "Last hands"));
    const list = el("ol", "last-hands");
    for (const hand of doc.last_hands) {
      const item = el("li");
      item.append(el("span", "hand-number", hand.hand), el("span", "hand-words", hand.words));
      list.append(item);
    }
    hands.append(list);
  } else {
    hands.append(el("p", "dim", "No hands yet."));
  }
}

function tableCard(table) {
  const status = table.status;
  const card = el("article", "table-card");
  card.dataset.session = status.session;
  card.append(el("h2", "", status.session));
  card.append(el("p", "dim", table.variant_name + " · " + status.hands_played +
                 (status.hands_played === 1 ? " hand" : " hands")));
  if (status.variant === "hollywood") {
    card.append(hollywoodTable(status, table.on, true));
  } else {
    const words = roleWords(status);
    const list = el("table", "games compact");
    list.append(el("tbody"));
    for (const player of status.players) {
      const row = el("tr");
      const name = el("th", "name-cell");
      name.append(el("div", "name", player), el("div", "role", words[player] || ""));
      const cell = el("td", "game-cell");
      if (status.winner === player) cell.classList.add("won");
      cell.append(score(status.totals[player], player, 1, "total"));
      row.append(name, cell);
      list.tBodies[0].append(row);
    }
    card.append(list);
  }
  if (table.winner_words) card.append(el("p", "winner-words", table.winner_words));
  else for (const line of status.state_of_play.slice(-1)) card.append(el("p", "state-of-play", line));
  for (const hand of table.last_hands) card.append(el("p", "dim", "Hand " + hand.hand + ": " + hand.words));
  return card;
}

function renderClub(doc) {
  if (fileProblem(doc)) return;
  fill("subtitle", doc.tables.length === 1 ? "1 session played today" : doc.tables.length + " sessions played today");
  fill("tables", ...(doc.tables.length ? doc.tables.map(tableCard) : [el("p", "dim", "No session played today yet.")]));
  if (!doc.ladder.length) {
    fill("ladder", el("p", "dim", "No finished game yet."));
    return;
  }
  const table = el("table", "ladder");
  const head = el("tr");
  for (const word of ["#", "Player", "Rating", "Games"]) head.append(el("th", "", word));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  doc.ladder.forEach((line, index) => {
    const row = el("tr");
    row.append(el("td", "", index + 1), el("td", "name", line.name), el("td", "number", line.ordinal.toFixed(1)),
               el("td", "number", line.games));
    table.tBodies[0].append(row);
  });
  fill("ladder", table);
}

function connect() {
  const page = document.body.dataset.page;
  const render = page === "club" ? renderClub : renderSession;
  const events = new EventSource("/events/" + page + tokenQuery());
  events.onmessage = (message) => {
    render(JSON.parse(message.data));
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) {
      // Turned away (every place taken, or an old address): the browser gives up on it, so ask again.
      events.close();
      notice("The server turned this page away (too many pages open?); trying again…", "gone");
      setTimeout(connect, 5000);
      return;
    }
    notice("The server is not answering (stopped?); trying again…", "gone");
  };
}

document.addEventListener("DOMContentLoaded", connect);

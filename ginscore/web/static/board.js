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

// Text that holds the players' names, each name isolated (<bdi>): a name written right to left
// (Hebrew, Arabic) cannot carry the numbers and words beside it over to its side of the line.
function withNames(tag, className, text, names) {
  const made = el(tag, className);
  const longestFirst = [...names].sort((a, b) => b.length - a.length);
  let rest = String(text);
  while (rest) {
    let at = -1;
    let found = null;
    for (const name of longestFirst) {
      const index = rest.indexOf(name);
      if (index >= 0 && (at < 0 || index < at)) [at, found] = [index, name];
    }
    if (found === null) {
      made.append(rest);
      break;
    }
    made.append(rest.slice(0, at), el("bdi", "", found));
    rest = rest.slice(at + found.length);
  }
  return made;
}

// Each sum of a hand's words ("13 - 3 = 10", "(13 - 3) x 2") on one line: broken after its "-" or "=",
// it reads as two numbers.
function sumsKept(made) {
  for (const text of [...made.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)) {
    const parts = text.data.split(/(\(?\d+ [-+] \d+(?:\) x 2)?(?: = \d+)?|= \d+)/);
    if (parts.length > 1) text.replaceWith(...parts.map((part, at) => (at % 2 ? el("span", "sum", part) : part)));
  }
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
  shown.style.setProperty("--digits", String(String(value).length));  // the stylesheet sizes it to fit its card
  return shown;
}

// A score in a table cell, in a box its size is measured by (a cell cannot be measured itself).
function fitted(shown) {
  const fit = el("div", "fit");
  fit.append(shown);
  return fit;
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
      cell.append(fitted(score(game.scores[player], player, game.game, "total")));
      if (!compact) {
        cell.append(el("div", "state", game.winner === player ? "won" : isOn ? "on" : "not on"));
        // A game over with bonuses (H3): what it counts for, as `status` says under its table.
        if (game.final && game.final[player] !== game.scores[player]) {
          cell.append(el("div", "final", "final " + game.final[player]));
        }
      }
      row.append(cell);
    });
    table.tBodies[0].append(row);
  }
  return table;
}

// The file the page reads, and what keeps it from being read (the board stays, greyed, until it can be).
// A name is drawn smaller where its longest word is wider than its box (a dozen letters in a phone's
// three columns), down to seven tenths of its size; only a name that does not fit even then breaks.
function fitNames() {
  for (const name of document.querySelectorAll(".name")) {
    name.style.fontSize = "";
    name.style.overflowWrap = "normal";
    if (name.scrollWidth <= name.clientWidth) continue;
    const size = parseFloat(getComputedStyle(name).fontSize);
    const fits = Math.max(size * 0.7, size * (name.clientWidth - 1) / name.scrollWidth);
    name.style.fontSize = Math.floor(fits * 10) / 10 + "px";
    if (name.scrollWidth > name.clientWidth) name.style.overflowWrap = "anywhere";
  }
}

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
  const names = status.players;
  const heading = "House rules" + (doc.rules_since || "") + ": ";  // (" from hand 3" after a change, H8)
  const rules = [el("br"), el("span", "rules", heading + doc.house_rules.join("; "))];
  if (doc.rules_note) rules.push(el("br"), el("span", "rules rules-note", doc.rules_note));
  fill("subtitle", withNames("span", "", doc.variant_name + " · " + names.join(" v ") + " · " + played, names),
       ...rules);
  fill("board", status.variant === "hollywood" ? hollywoodTable(status, doc.on, false) : playerCards(status));
  fill("words", ...status.state_of_play.map((line) => withNames("p", "state-of-play", line, names)));
  const result = [];
  if (doc.winner_words) result.push(withNames("p", "winner-words", doc.winner_words, names));
  for (const line of doc.settlement_words) result.push(withNames("p", "settlement", line, names));
  if (status.match && status.match.sessions.length > 1) {  // (the others deleted: no match, as `status` says)
    const games = Object.entries(status.match.games_won).map(([p, n]) => p + " " + n).join(", ");
    const said = "Match of " + status.match.sessions.length + " sessions, games won: " + games;
    result.push(withNames("p", "match", said, names));
  }
  fill("result", ...result);
  const hands = fill("hands");
  if (doc.last_hands.length) {
    hands.append(el("h2", "", "Last hands"));
    const list = el("ol", "last-hands");
    for (const hand of doc.last_hands) {
      const item = el("li");
      const words = sumsKept(withNames("span", "hand-words", hand.words, names));
      if (hand.note) words.append(el("span", "note", "Note: " + hand.note));
      item.append(el("span", "hand-number", hand.hand), words);
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
      cell.append(fitted(score(status.totals[player], player, 1, "total")));
      row.append(name, cell);
      list.tBodies[0].append(row);
    }
    card.append(list);
  }
  const names = status.players;
  if (table.winner_words) card.append(withNames("p", "winner-words", table.winner_words, names));
  else for (const line of status.state_of_play.slice(-1)) card.append(withNames("p", "state-of-play", line, names));
  for (const hand of table.last_hands) {
    const said = "Hand " + hand.hand + ": " + hand.words + (hand.note ? " Note: " + hand.note : "");
    card.append(sumsKept(withNames("p", "dim", said, names)));
  }
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
  for (const line of doc.ladder) {
    const row = el("tr");
    row.append(el("td", "", line.place), el("td", "name", line.name), el("td", "number", line.ordinal.toFixed(1)),
               el("td", "number", line.games));
    table.tBodies[0].append(row);
  }
  fill("ladder", table);
}

// A server that says nothing for two of its keep-alives and more (its laptop closed or asleep) may be
// missing hands recorded meanwhile: the page says so until it hears from the server again.
let heard = Date.now();  // when the server was last heard, as the notice says
let waitedFrom = heard;  // the start of the silence counted: a page that slept itself waits afresh
let aliveEvery = 15;  // seconds; each keep-alive says it

function heardFrom() {
  heard = waitedFrom = Date.now();
  if (document.getElementById("notice").dataset.kind === "quiet") notice("");
}

let checked = Date.now();
setInterval(() => {
  const now = Date.now();
  if (now - checked > 15000) waitedFrom = now;  // this page was asleep itself (a phone's screen off)
  checked = now;
  const shown = document.getElementById("notice");  // (a notice of its own, like a server gone, stays)
  if (now - waitedFrom > (2 * aliveEvery + 5) * 1000 && (shown.hidden || shown.dataset.kind === "quiet")) {
    notice("Nothing heard from the server since " + new Date(heard).toLocaleTimeString() +
           " (is its computer asleep?); these scores may be out of date.", "quiet");
  }
}, 5000);

function connect() {
  const page = document.body.dataset.page;
  const render = page === "club" ? renderClub : renderSession;
  const events = new EventSource("/events/" + page + tokenQuery());
  events.onopen = heardFrom;
  events.addEventListener("alive", (message) => {
    aliveEvery = Number(message.data) || aliveEvery;
    heardFrom();
  });
  events.onmessage = (message) => {
    heardFrom();
    render(JSON.parse(message.data));
    fitNames();
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) {
      // Turned away: the browser gives up on it. Which answer it was says whether to ask again.
      events.close();
      turnedAway(page);
      return;
    }
    notice("The server is not answering (stopped?); trying again…", "gone");
  };
}

// A server started again with --lan has a new token: this page's address will never be let in again,
// so it says where the new one is. Every place taken (503) frees up as other pages close.
function turnedAway(page) {
  fetch("/data/" + page + tokenQuery(), { cache: "no-store" }).then((answer) => {
    if (answer.status === 403) {
      notice("The server no longer accepts this page's address: it was started again with a new one. " +
             "Scan its new QR code, or open the address it printed.", "refused");
      return;
    }
    notice("The server turned this page away (too many pages open?); trying again…", "gone");
    setTimeout(connect, 5000);
  }, () => {
    notice("The server is not answering (stopped?); trying again…", "gone");
    setTimeout(connect, 5000);
  });
}

document.addEventListener("DOMContentLoaded", connect);
window.addEventListener("resize", fitNames);  // a phone turned: the boxes are laid out again

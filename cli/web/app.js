// The page of a seat (or of the spectators) at a game hosted with `meeple host`.
//
// The link's token is the part after "#": it never reaches a server log or another site.
// The page joins the game over one websocket, then shows each update it is sent: the
// seat's view laid out as rows of cards and counters, whose turn it is, the log, and,
// when the seat decides, its legal actions as buttons. Everything shown is text set with
// textContent: nothing the server sends is read as HTML.
"use strict";

const LOG_KEPT = 1000; // log lines shown at once (older ones scroll away)
const token = location.hash.slice(1);
const $ = (id) => document.getElementById(id);

let socket = null;
let welcome = null;
let update = null;
let retry = 500; // ms before reconnecting; doubles up to 10 s
let ended = false; // the server closed the connection for good, saying why
let deadline = null; // when the deciding seat's time runs out (Date.now() ms)
let typed = ""; // digits typed towards a choice

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function say(text, alert) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("alert", Boolean(alert));
  status.setAttribute("role", alert ? "alert" : "status");
}

function connect() {
  if (!token) {
    say("This page needs its link's token (after #): open the link as `meeple host` printed it.", true);
    return;
  }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => {
    retry = 500;
    socket.send(JSON.stringify({ type: "join", token: token, page: true }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    socket = null;
    if (ended) return;
    say(`Connection lost; trying again in ${Math.round(retry / 1000) || 1} s…`, true);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

function receive(message) {
  if (message.type === "welcome") {
    welcome = message;
    const who = message.seat === null ? "spectator" : `seat ${message.seat}`;
    $("title").textContent = `${message.title} · ${who}`;
    document.title = `${message.title} · ${who} · meeple`;
    $("log-lines").replaceChildren();
    say("connected");
  } else if (message.type === "update") {
    if (update === null || message.step !== update.step) say("connected");
    update = message;
    show(message);
  } else if (message.type === "refused") {
    say(message.reason, true);
    if (message.closing) ended = true;
    else if (update) show(update); // a refused choice: the actions are offered again
  }
}

function seatName(seat) {
  const name = welcome.seats[seat];
  const you = welcome.seat === seat ? ", you" : "";
  return `seat ${seat} (${name}${you})`;
}

function show(u) {
  showTurn(u);
  showActions(u);
  showSeats(u);
  showDrawing(u);
  showBoard(u);
  showLog(u);
  showScores(u);
}

function showTurn(u) {
  const whose = $("whose");
  if (u.to_move === null) whose.textContent = `Game over after ${u.step} moves.`;
  else if (u.to_move === welcome.seat) whose.textContent = `Round ${u.round}: your turn.`;
  else whose.textContent = `Round ${u.round}: ${seatName(u.to_move)} is deciding.`;
  deadline = u.timer === null || u.timer === undefined ? null : Date.now() + u.timer * 1000;
  tick();
}

function tick() {
  const timer = $("timer");
  timer.hidden = deadline === null;
  if (deadline !== null) {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    timer.textContent = `${left} s left to decide`;
  }
}

function showActions(u) {
  const list = $("choices");
  list.replaceChildren();
  typed = "";
  const mine = u.choices.length > 0 && u.to_move === welcome.seat;
  $("actions").hidden = !mine;
  if (!mine) return;
  u.choices.forEach((text, index) => {
    const button = el("button", `${index + 1}. ${text}`, "choice");
    button.type = "button";
    button.addEventListener("click", () => choose(index));
    const item = el("li");
    item.appendChild(button);
    list.appendChild(item);
  });
  const first = list.querySelector("button");
  if (first && !document.activeElement?.closest("#choices")) first.focus({ preventScroll: true });
}

function choose(index) {
  if (!socket || !update || update.to_move !== welcome.seat) return;
  socket.send(JSON.stringify({ type: "choose", step: update.step, index: index }));
  for (const button of $("choices").querySelectorAll("button")) button.disabled = true;
  say("sent; waiting for the game…");
}

document.addEventListener("keydown", (event) => {
  if (!update || $("actions").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
  const n = update.choices.length;
  if (/^[0-9]$/.test(event.key)) {
    const now = typed + event.key;
    const number = Number(now);
    if (number < 1 || number > n) {
      typed = "";
      return;
    }
    if (now.length === String(n).length || number * 10 > n) choose(number - 1);
    else {
      typed = now;
      $("choices").querySelectorAll("button")[number - 1].focus();
    }
    event.preventDefault();
  } else if (event.key === "Enter" && typed) {
    choose(Number(typed) - 1);
    event.preventDefault();
  }
});

function showSeats(u) {
  const list = $("seat-list");
  list.replaceChildren();
  u.seats.forEach((seat, index) => {
    const item = el("li", null, index === u.to_move ? "deciding" : "");
    item.appendChild(el("span", index === u.to_move ? "▶ " : "", "mark"));
    item.appendChild(el("span", seatName(index)));
    if (!seat.here) item.appendChild(el("span", " · away", "away"));
    list.appendChild(item);
  });
}

function cardList(cards, names) {
  // Runs of one face-down back are drawn once, with their count.
  const list = el("ul", null, "cards");
  for (let i = 0; i < cards.length; ) {
    let j = i + 1;
    if (cards[i].startsWith("?")) while (j < cards.length && cards[j] === cards[i]) j++;
    const card = cards[i];
    const hidden = card.startsWith("?");
    const back = card.slice(1) || "card";
    const text = hidden ? `face down (${back})` : names[card] || card;
    const item = el("li", text, hidden ? "card back" : "card");
    if (j - i > 1) item.appendChild(el("span", ` ×${j - i}`, "count"));
    item.title = hidden ? `${j - i} face down` : card;
    list.appendChild(item);
    i = j;
  }
  if (!cards.length) list.appendChild(el("li", "empty", "empty"));
  return list;
}

function area(title, rows, counts, names) {
  const section = el("section", null, "area");
  section.appendChild(el("h2", title));
  if (counts.length) {
    const dl = el("dl", null, "counts");
    for (const count of counts) {
      const pair = el("div");
      pair.appendChild(el("dt", count.label));
      pair.appendChild(el("dd", count.value));
      dl.appendChild(pair);
    }
    section.appendChild(dl);
  }
  for (const row of rows) {
    const div = el("div", null, "row");
    div.appendChild(el("h3", `${row.label} (${row.cards.length})`));
    div.appendChild(cardList(row.cards, names));
    section.appendChild(div);
  }
  return section;
}

function showBoard(u) {
  const board = u.board;
  const sections = [];
  const order = welcome.seat === null ? [] : [welcome.seat];
  u.seats.forEach((_, seat) => {
    if (seat !== welcome.seat) order.push(seat);
  });
  const ofSeat = (seat) => [
    board.rows.filter((r) => r.seat === seat),
    board.counts.filter((c) => c.seat === seat),
  ];
  for (const seat of order) {
    const [rows, counts] = ofSeat(seat);
    if (rows.length || counts.length) {
      const title = seat === welcome.seat ? `Yours: ${seatName(seat)}` : seatName(seat);
      sections.push(area(title, rows, counts, board.names));
    }
  }
  const [rows, counts] = ofSeat(null);
  sections.push(area("Table", rows, counts, board.names));
  $("areas").replaceChildren(...sections);
}

function showDrawing(u) {
  // Lines of [text, colour, background, flags], as the full-screen table draws them.
  const details = $("drawing");
  details.hidden = !u.drawing;
  if (!u.drawing) return;
  if (!details.dataset.seen) {
    details.dataset.seen = "1";
    details.open = window.matchMedia("(min-width: 761px)").matches;
  }
  const lines = u.drawing.map((line) => {
    const div = el("div", null, "line");
    for (const [text, colour, ground, flags] of line) {
      const span = el("span", text);
      if (colour) span.style.color = colour;
      if (ground) span.style.backgroundColor = ground;
      if (flags.includes("b")) span.style.fontWeight = "bold";
      if (flags.includes("d")) span.style.opacity = "0.6";
      if (flags.includes("i")) span.style.fontStyle = "italic";
      if (flags.includes("u")) span.style.textDecoration = "underline";
      if (flags.includes("r")) span.className = "reverse";
      div.appendChild(span);
    }
    if (!line.length) div.textContent = " ";
    return div;
  });
  $("drawing-lines").replaceChildren(...lines);
}

function showLog(u) {
  const list = $("log-lines");
  if (u.log_from === 0) list.replaceChildren();
  for (const line of u.log) {
    list.appendChild(el("li", line, line.startsWith("──") ? "heading" : ""));
  }
  while (list.childElementCount > LOG_KEPT) list.firstElementChild.remove();
  if (u.log.length) list.lastElementChild.scrollIntoView({ block: "nearest" });
}

function showScores(u) {
  const section = $("scores");
  section.hidden = !u.scores;
  if (!u.scores) return;
  const parts = [];
  for (const score of u.scores) for (const part of Object.keys(score.parts)) if (!parts.includes(part)) parts.push(part);
  const table = $("score-table");
  table.replaceChildren();
  const head = el("tr");
  for (const title of ["place", "seat", ...parts.map((p) => p.replaceAll("_", " ")), "total", "note"]) {
    const th = el("th", title);
    th.scope = "col";
    head.appendChild(th);
  }
  table.appendChild(head);
  u.scores.forEach((score, i) => {
    const place = u.places[i];
    const row = el("tr", null, place === 1 ? "winner" : "");
    const cells = [place === 1 ? `★ ${place}` : place, seatName(score.seat)];
    cells.push(...parts.map((p) => (p in score.parts ? score.parts[p] : "")), score.total, score.note);
    for (const cell of cells) row.appendChild(el("td", cell));
    table.appendChild(row);
  });
  say(u.places[welcome.seat] === 1 ? "Game over: you won!" : "Game over.");
}

setInterval(tick, 500);
connect();

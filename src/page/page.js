// The phone page of `yardzee serve`: reads a photo, shows the answer first, and moves the game
// through the JSON API (src/serve_api.c). Every change carries the tag of the state it was made
// on, so a double tap or a second phone acting on the same state is refused by the server.
'use strict';
const $ = id => document.getElementById(id);
const POLL_MS = 2000;

let code = localStorage.getItem('yardzee-code') || '';
let read = null;       // the last photo's answer
let dice = [];         // the roll to record: read, then corrected
let unsure = [];       // dice the reader was not sure of (or did not find)
let corrected = false;
let picking = -1;      // the die whose value the picker sets
let game = null;       // the last state the server sent
let kept = [], chosenBox = '', shownTag = '';
let busy = false;      // a change is on its way: taps meanwhile do nothing
let pending = null;    // a change refused for the join code, retried once the code is given
let online = true;

// A scanned QR code carries the join code: keep it, and take it out of the address bar.
const fromLink = new URLSearchParams(location.search).get('code');
if (fromLink) {
  code = fromLink.trim().toUpperCase();
  localStorage.setItem('yardzee-code', code);
  history.replaceState(null, '', location.pathname);
}
$('code').value = code;

const layouts = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];
function drawDice(box, values, classOf, onTap) {
  box.textContent = '';
  values.forEach((value, i) => {
    const die = document.createElement('button');
    die.className = 'die ' + classOf(i);
    die.setAttribute('aria-label', value ? 'die showing ' + value : 'die not read');
    if (!value) die.appendChild(document.createElement('b')).textContent = '?';
    for (let cell = 0; value && cell < 9; cell++)
      die.appendChild(document.createElement('i')).className = layouts[value].includes(cell) ? 'p' : '';
    if (onTap) die.onclick = () => onTap(i);
    box.appendChild(die);
  });
}
function say(id, text, bad) {
  $(id).textContent = text || '';
  $(id).className = 'msg' + (bad ? ' bad' : '');
}
function labelOf(box) {
  const found = game && game.boxes.find(b => b.name === box);
  return found ? found.label : box;
}
function adviceText(a) {
  if (!a) return '';
  if (a.keep) return a.keep.length ? 'Keep ' + a.keep.join(' ') + ' and throw ' + (5 - a.keep.length) + ' dice again.' : 'Throw all five dice again.';
  return 'Score ' + a.label + ' for ' + a.points + '.';
}
function moveText(m) {
  if (!m) return '';
  if (m.throw) return m.player + ' threw ' + m.throw.join(' ') + (m.corrected ? ' (corrected by hand)' : '');
  if (m.keep) return m.player + ' kept ' + (m.keep.length ? m.keep.join(' ') : 'nothing');
  return m.player + ' scored ' + m.points + ' in ' + labelOf(m.score);
}

// ---- reading a photo ------------------------------------------------------------------------

$('photo').onchange = () => { const file = $('photo').files[0]; if (file) upload(file); $('photo').value = ''; };
function upload(file) {
  const request = new XMLHttpRequest();
  request.open('POST', '/api/read');
  $('progress').hidden = false;
  $('progress').removeAttribute('value');
  say('readmsg', 'Sending the photo...');
  request.upload.onprogress = e => {
    if (e.lengthComputable) $('progress').value = e.loaded / e.total;
    if (e.loaded === e.total) { $('progress').removeAttribute('value'); say('readmsg', 'Reading the dice...'); }
  };
  request.onload = () => {
    $('progress').hidden = true;
    let answer;
    try { answer = JSON.parse(request.responseText); } catch (e) { answer = { error: 'the server answered ' + request.status }; }
    showRead(answer);
  };
  request.onerror = () => { $('progress').hidden = true; say('readmsg', 'The photo did not arrive: check the network and try again.', true); };
  request.send(file);
}
function showRead(answer) {
  corrected = false;
  picking = -1;
  $('picker').hidden = true;
  say('recordmsg', '');
  if (answer.error) {
    read = null;
    $('result').hidden = true;
    say('readmsg', 'That photo cannot be used: ' + answer.error + '. Please take another one.', true);
    return;
  }
  say('readmsg', '');
  read = answer;
  const found = answer.dice || [];
  if (answer.status === 'ok') {
    dice = answer.roll.slice();
    unsure = found.map(d => d.confidence < 0.8);
    say('status', (answer.player ? answer.player + ' threw' : 'Roll') + ' - sure: ' + Math.floor(answer.confidence * 100) + '%');
    $('advice').textContent = adviceText(answer.advice);
  } else {
    // Start from what was read: the dice found keep their values, the rest are '?'.
    dice = [0, 1, 2, 3, 4].map(i => i < found.length ? found[i].value : 0);
    unsure = [0, 1, 2, 3, 4].map(i => i >= found.length || found[i].confidence < 0.8);
    say('status', 'Could not read the dice: ' + answer.reason + '. Tap a die to set it, or take another photo.', true);
    $('advice').textContent = '';
  }
  $('record').dataset.tag = game ? game.tag : ''; // recorded on the state it was read for
  $('shot').src = '/api/annotated/' + answer.id + '.jpg';
  $('shot').classList.remove('enlarged');
  $('result').hidden = false;
  drawRoll();
  window.scrollTo(0, 0);
}
function drawRoll() {
  const readValue = i => read.status === 'ok' ? read.roll[i] : (read.dice[i] || { value: 0 }).value;
  drawDice($('roll'), dice, i => [dice[i] !== readValue(i) ? 'fixed' : unsure[i] ? 'unsure' : '', i === picking ? 'picking' : ''].join(' '), i => {
    picking = picking === i ? -1 : i;
    $('pickwhich').textContent = 'Die ' + (i + 1) + ' shows:';
    $('picker').hidden = picking < 0;
    drawRoll();
  });
  $('record').hidden = !game;
  $('record').disabled = dice.includes(0) || !game || game.over;
}
const faces = document.querySelector('#picker .faces');
for (let value = 1; value <= 6; value++) {
  const face = faces.appendChild(document.createElement('button'));
  face.textContent = value;
  face.setAttribute('aria-label', 'set to ' + value);
  face.onclick = () => {
    if (picking < 0) return;
    dice[picking] = value;
    unsure[picking] = false;
    corrected = true;
    picking = -1;
    $('picker').hidden = true;
    $('advice').textContent = '';
    drawRoll();
  };
}
$('shot').onclick = () => $('shot').classList.toggle('enlarged');

// ---- changing the game ----------------------------------------------------------------------

// Sends one change with the tag of the state it was made on (the state shown when its button was
// drawn, unless body has its own). msgId is where a refusal shows; the join code prompt appears
// right below it. A tap on a button no longer shown (a double tap's second) does nothing.
async function change(button, path, body, msgId) {
  if (busy || !game || button.disabled || !button.getClientRects().length) return null;
  busy = true;
  body = Object.assign({ tag: button.dataset.tag || game.tag }, body || {});
  let response = null, answer;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'X-Join-Code': code, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    answer = await response.json();
    setOnline(true);
  } catch (e) {
    answer = { error: 'no answer from the server: nothing was changed. Try again when it is back' };
    if (!response) setOnline(false);
  }
  busy = false;
  if (response && response.status === 403) {
    say(msgId, answer.error, true);
    askCode(msgId, () => change(button, path, body, msgId));
    return null;
  }
  if (answer.game) showGame(answer.game); // a refused change: the game as it is now
  if (answer.error) {
    const repeated = answer.error.startsWith('already recorded');
    say(msgId, repeated ? 'Already recorded: this is the game as it is now.' : answer.error, !repeated);
    return null;
  }
  say(msgId, '');
  $('codeask').hidden = true;
  showGame(answer);
  return answer;
}
function askCode(msgId, retry) {
  pending = retry;
  $(msgId).after($('codeask'));
  $('codeask').hidden = false;
  $('code').focus();
}
$('codego').onclick = () => {
  code = $('code').value.trim().toUpperCase();
  localStorage.setItem('yardzee-code', code);
  $('codeask').hidden = true;
  const retry = pending;
  pending = null;
  if (retry) retry();
};
$('code').onkeydown = e => { if (e.key === 'Enter') $('codego').click(); };
$('codeshow').onclick = () => { pending = null; $('codeshow').parentNode.before($('codeask')); $('codeask').hidden = !$('codeask').hidden; };

$('record').onclick = async () => {
  if (!read) return;
  const body = { roll: dice, photo: read.id };
  if (corrected) body.corrected = true;
  const done = await change($('record'), '/api/game/throw', body, 'recordmsg');
  const message = $('recordmsg').textContent;
  if (done || /this photo is move/.test(message)) {
    $('result').hidden = true;
    read = null;
    say('recordmsg', '');
    if (done) window.scrollTo(0, 0);
  } else if (message.startsWith('Already recorded')) {
    $('record').dataset.tag = game.tag;
    say('recordmsg', 'The game changed on another phone: check the roll, then Record again.', true);
  }
};
$('keep').onclick = () => change($('keep'), '/api/game/keep', { keep: kept.map(i => game.dice[i]) }, 'gamemsg');
$('score').onclick = () => change($('score'), '/api/game/score', { box: chosenBox }, 'gamemsg');
$('newgame').onclick = () => change($('newgame'), '/api/game/new', {}, 'gamemsg');
// Undo asks first, with its question and Yes away from the Undo button, so a double tap on Undo
// does not take anything back by itself.
$('undo').onclick = () => {
  $('undoq').textContent = 'Take back "' + moveText(game.last) + '"?';
  $('undoask').hidden = false;
  $('undoask').dataset.tag = game.tag;
};
$('undono').onclick = () => { $('undoask').hidden = true; };
$('undoyes').onclick = async () => {
  if (await change($('undoyes'), '/api/game/undo', { tag: $('undoask').dataset.tag }, 'gamemsg')) $('undoask').hidden = true;
};

// ---- the game -------------------------------------------------------------------------------

function row(table, cells, className) {
  const tr = table.insertRow();
  tr.className = className || '';
  cells.forEach((text, i) => {
    const cell = tr.insertCell();
    cell.textContent = text;
    if (i && game.players[i - 1].name === game.turn) cell.className = 'now';
  });
}
function showGame(g) {
  if (g.error || !g.players) { game = null; $('game').hidden = true; $('turn').textContent = ''; return; }
  game = g;
  $('game').hidden = false;
  $('turn').textContent = g.over ? 'Game over' : 'Round ' + g.round + ': ' + g.turn + (g.throws ? ', ' + g.throws + ' of 3 throws made' : ' to throw');
  const changed = g.tag !== shownTag;
  const lastIsKeep = g.last && g.last.keep && !g.over;
  if (changed) {
    shownTag = g.tag;
    $('undoask').hidden = true;
    const advised = (g.advice && g.advice.keep || []).slice();
    kept = [];
    g.dice.forEach((value, i) => { const at = advised.indexOf(value); if (at >= 0) { advised.splice(at, 1); kept.push(i); } });
    const best = g.options.find(o => o.best);
    chosenBox = best ? best.box : '';
    $('keep').dataset.tag = $('score').dataset.tag = $('newgame').dataset.tag = g.tag;
  }
  $('last').hidden = !g.last;
  $('lasttext').textContent = moveText(g.last);
  const throwing = g.throws > 0 && !g.over;
  $('lawn').hidden = !throwing;
  if (throwing)
    drawDice($('lawn'), g.dice, i => kept.includes(i) ? 'keep' : '', lastIsKeep || g.throws === 3 ? null : i => {
      kept = kept.includes(i) ? kept.filter(k => k !== i) : kept.concat([i]);
      showGame(game);
    });
  const canKeep = throwing && g.throws < 3 && !lastIsKeep;
  $('lawnhint').hidden = $('keep').hidden = !canKeep;
  const keptValues = kept.map(i => g.dice[i]).sort();
  $('keep').textContent = keptValues.length ? 'Keep ' + keptValues.join(' ') + ', throw ' + (5 - keptValues.length) : 'Keep none, throw all 5';
  $('gameadvice').textContent = lastIsKeep ? 'Throw the other ' + (5 - g.kept.length) + ' dice, then take a photo.' : throwing ? adviceText(g.advice) : '';
  $('scoring').hidden = !throwing;
  if (throwing) drawBoxes(g);
  $('photoarea').hidden = g.over;
  if (throwing) $('scoring').after($('photoarea'));
  else $('game').before($('photoarea'));
  showOver(g);
  drawBoard(g);
  if (read) drawRoll();
}
function drawBoxes(g) {
  const boxes = $('boxes');
  boxes.textContent = '';
  g.options.forEach(o => {
    const b = boxes.appendChild(document.createElement('button'));
    b.className = (o.best ? 'best ' : '') + (o.box === chosenBox ? 'chosen' : '');
    b.dataset.box = o.box;
    b.appendChild(document.createElement('span')).textContent = o.label;
    const points = b.appendChild(document.createElement('span'));
    points.className = 'pts';
    points.textContent = o.points;
    b.onclick = () => { chosenBox = o.box; drawBoxes(g); };
  });
  const chosen = g.options.find(o => o.box === chosenBox);
  $('score').disabled = !chosen;
  $('score').textContent = chosen ? 'Score ' + chosen.label + ' for ' + chosen.points : 'Score';
}
function drawBoard(g) {
  const board = $('board');
  board.textContent = '';
  row(board, [''].concat(g.players.map(p => p.name)), 'sum');
  g.boxes.forEach(b => {
    row(board, [b.label].concat(g.players.map(p => p.boxes[b.name] === null ? '' : p.boxes[b.name])));
    if (b.name === 'sixes') {
      row(board, ['Upper total'].concat(g.players.map(p => p.upper)));
      row(board, ['Upper bonus'].concat(g.players.map(p => p.upper_bonus)));
    }
  });
  if (g.players.some(p => p.yahtzee_bonus)) row(board, ['Yahtzee bonus'].concat(g.players.map(p => p.yahtzee_bonus)));
  row(board, ['Total'].concat(g.players.map(p => p.total)), 'sum');
  row(board, ['Place'].concat(g.players.map(p => p.place)), 'sum');
}

let reviewTag = '';
function showOver(g) {
  $('over').hidden = !g.over;
  if (!g.over) { reviewTag = ''; return; }
  const first = g.players.filter(p => p.place === 1);
  $('winner').textContent = first.length === 1 ? first[0].name + ' wins with ' + first[0].total + '!'
    : first.map(p => p.name).join(' and ') + ' tie with ' + first[0].total + '!';
  const standings = $('standings');
  standings.textContent = '';
  g.players.slice().sort((a, b) => a.place - b.place).forEach(p => {
    standings.appendChild(document.createElement('li')).textContent = p.name + ': ' + p.total;
  });
  if (reviewTag !== g.tag) { reviewTag = g.tag; loadReview(); }
}
function decisionText(d) {
  // GET /api/review's choices: {"keep": [..], "text"} or {"box", "label", "points", "text"}.
  const choice = v => v.text;
  return 'round ' + d.round + ', throw ' + d.throw + ' (' + d.dice.join(' ') + '): ' + choice(d.chosen) +
    ', best ' + choice(d.best) + ' (' + d.given_up.toFixed(1) + ' given up)';
}
// GET /api/review: each player's points given up and worst decision; hidden if it fails.
async function loadReview() {
  $('review').hidden = true;
  let review;
  try {
    const response = await fetch('/api/review');
    if (response.status !== 200) return;
    review = await response.json();
  } catch (e) { return; }
  const players = $('reviewplayers'), all = $('reviewall');
  players.textContent = all.textContent = '';
  (review.players || []).forEach(p => {
    const line = players.appendChild(document.createElement('p'));
    line.className = 'worst';
    line.appendChild(document.createElement('b')).textContent = p.name + ': ' + p.given_up.toFixed(1) + ' points given up';
    const worst = (p.worst || [])[0];
    if (worst) line.appendChild(document.createElement('br')).after('worst: ' + decisionText(worst));
    all.appendChild(document.createElement('h2')).textContent = p.name;
    const list = all.appendChild(document.createElement('ol'));
    (p.decisions || []).filter(d => d.class !== 'fine').forEach(d => {
      list.appendChild(document.createElement('li')).textContent = d.class + ': ' + decisionText(d);
    });
  });
  $('reviewall').hidden = true;
  $('review').hidden = false;
}
$('reviewmore').onclick = () => { $('reviewall').hidden = !$('reviewall').hidden; };

// ---- following the other phones ------------------------------------------------------------

function setOnline(up) {
  online = up;
  $('offline').hidden = up;
  document.body.classList.toggle('offline', !up);
}
async function poll() {
  try {
    const response = await fetch('/api/game' + (game ? '?since=' + encodeURIComponent(game.tag) : ''));
    const answer = await response.json();
    setOnline(true);
    if (!answer.same) showGame(answer);
  } catch (e) {
    setOnline(false);
  }
}
poll();
setInterval(poll, POLL_MS);

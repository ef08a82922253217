// sudokubank's page: browse the bank, play a puzzle, step through its
// hints and print. Plain JavaScript without dependencies; every datum
// comes from the JSON API under /api/v1. A puzzle of N*N characters is
// an N x N grid; values from 10 on are the letters A to P.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...kids) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...kids);
    return e;
  };
  const num = (n) => Number(n).toLocaleString("en");
  const humane = (slug) => (slug || "").replace(/-/g, " ");
  const say = (msg) => { $("status").textContent = msg; };
  const SVGNS = "http://www.w3.org/2000/svg";

  // api gets a JSON resource, throwing the server's error message.
  async function api(path) {
    const r = await fetch(path, { headers: { Accept: "application/json" } });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw Object.assign(new Error(body.error || `${r.status} ${r.statusText}`), { status: r.status });
    return body;
  }

  // Symbols: 1-9, then A (10) to P (25); anything else is an empty cell.
  const symbol = (v) => (v <= 0 ? "" : v < 10 ? String(v) : String.fromCharCode(55 + v));
  function valueOf(ch) {
    const c = ch.toUpperCase();
    if (c >= "1" && c <= "9") return c.charCodeAt(0) - 48;
    if (c >= "A" && c <= "P") return c.charCodeAt(0) - 55;
    return 0;
  }
  // shape returns the rows and columns of a box of an n x n grid: the
  // most square split, rows no more than columns (9: 3x3, 6: 2x3).
  function shape(n) {
    let rows = Math.floor(Math.sqrt(n));
    while (n % rows) rows--;
    return [rows, n / rows];
  }

  // ---- Browse and print.

  const filterFields = ["size", "level", "givens", "rating", "technique"];
  const picked = new Set(JSON.parse(sessionStorage.getItem("picked") || "[]"));
  let cursor = "";
  // listed is the filter of the list shown: More goes on with it, not
  // with the form as edited since, as a cursor is its filter's alone.
  let listed = new URLSearchParams();
  // listing counts the list requests: only the latest one's page is shown.
  let listing = 0, pending = false;

  function filterQuery() {
    const q = new URLSearchParams();
    for (const f of filterFields) {
      const v = $("f-" + f).value.trim();
      if (v) q.set(f, v);
    }
    return q;
  }

  // options refills a select with [value, label] pairs, keeping its value.
  function options(select, first, pairs) {
    const keep = select.value;
    select.replaceChildren(new Option(first, ""), ...pairs.map(([v, label]) => new Option(label, v)));
    if (keep && !pairs.some(([v]) => v === keep)) select.add(new Option(keep, keep));
    select.value = keep;
  }

  // counts sums the puzzles of entries by key, within the chosen level.
  function counts(entries, key, level) {
    const m = new Map();
    for (const e of entries) {
      if (level && e.level !== level) continue;
      m.set(e[key], (m.get(e[key]) || 0) + e.puzzles);
    }
    return m;
  }

  async function browse() {
    $("browse").hidden = false;
    let stats;
    try {
      stats = await api("/api/v1/stats");
    } catch (e) {
      say(`Could not read the bank: ${e.message}`);
      return;
    }
    $("totals").textContent = `${num(stats.puzzles)} puzzles in ${num(stats.families)} families.`;
    const levelOf = (name) => (stats.levels.find((l) => l.name === name || String(l.level) === name) || {}).level;
    // A bank of several sizes has a size filter, and its counts are those
    // of the size chosen: givens and techniques mean little across sizes.
    const sizes = stats.sizes || [];
    options($("f-size"), "any size", sizes.map((s) => [String(s.size), `${s.size}x${s.size} (${num(s.puzzles)})`]));
    $("results").classList.toggle("one-size", sizes.length < 2);
    const scope = () => sizes.find((s) => [String(s.size), `${s.size}x${s.size}`].includes($("f-size").value)) || stats;
    $("levels").replaceChildren(...stats.levels.map((l) => {
      const a = el("a", {}, l.name, el("span", { className: "count" }));
      a.dataset.level = l.name;
      return el("li", {}, a);
    }));
    // A level chip lists that level of the size chosen, and counts its
    // puzzles there. The givens and technique are dropped, as their
    // choices are those of another level, and so is the rating: a level
    // is a band of ratings.
    const chips = (sc) => {
      const size = $("f-size").value;
      for (const a of $("levels").querySelectorAll("a")) {
        const q = new URLSearchParams();
        if (size) q.set("size", size);
        q.set("level", a.dataset.level);
        a.href = `/?${q}`;
        const n = (sc.levels.find((l) => l.name === a.dataset.level) || { puzzles: 0 }).puzzles;
        a.querySelector(".count").textContent = num(n);
        a.setAttribute("aria-label", `${a.dataset.level}: ${num(n)} puzzles`);
      }
    };
    const refresh = () => {
      const sc = scope();
      chips(sc);
      options($("f-level"), "any level", sc.levels.map((l) => [l.name, `${l.name} (${num(l.puzzles)})`]));
      const level = levelOf($("f-level").value);
      const g = counts(sc.buckets, "givens", level);
      options($("f-givens"), "any number", [...g].sort((a, b) => a[0] - b[0]).map(([v, c]) => [String(v), `${v} (${num(c)})`]));
      const t = counts(sc.techniques, "technique", level);
      const names = new Map(sc.techniques.map((e) => [e.technique, e.name]));
      options($("f-technique"), "any technique", [...t].map(([v, c]) => [v, `${names.get(v) || humane(v)} (${num(c)})`]));
    };
    const q = new URLSearchParams(location.search);
    $("f-size-field").hidden = sizes.length < 2 && !q.get("size");
    // The size and the level first: the other fields' counts depend on them.
    const restore = (f) => {
      const v = q.get(f) || "";
      const field = $("f-" + f);
      if (field.tagName === "SELECT" && v && ![...field.options].some((o) => o.value === v)) field.add(new Option(v, v));
      field.value = v;
    };
    restore("size");
    restore("level");
    refresh();
    filterFields.slice(2).forEach(restore);
    $("f-size").addEventListener("change", refresh);
    $("f-level").addEventListener("change", refresh);
    $("filter").addEventListener("submit", (e) => {
      e.preventDefault();
      const fq = filterQuery().toString();
      history.replaceState(null, "", fq ? `/?${fq}` : "/");
      printLinks();
      list(true);
    });
    $("print-count").addEventListener("input", printLinks);
    $("more").addEventListener("click", () => list(false));
    $("results").addEventListener("change", (e) => {
      const id = e.target.dataset.id;
      if (!id) return;
      if (e.target.checked) picked.add(id); else picked.delete(id);
      sessionStorage.setItem("picked", JSON.stringify([...picked]));
      printLinks();
    });
    printLinks();
    list(true);
  }

  // list shows the first page of the filter, or the next one. A page
  // still coming is not asked for again (a double click on More), and a
  // new filter supersedes it.
  async function list(first) {
    if (!first && pending) return;
    const mine = ++listing;
    pending = true;
    for (const a of $("levels").querySelectorAll("a")) {
      if (a.dataset.level === $("f-level").value) a.setAttribute("aria-current", "true");
      else a.removeAttribute("aria-current");
    }
    const body = $("results").tBodies[0];
    if (first) {
      cursor = "";
      listed = filterQuery();
    }
    const q = new URLSearchParams(listed);
    q.set("limit", "50");
    let page, err, next = cursor;
    try {
      // A page reads a window of the bank: a filter few puzzles match
      // may give an empty one that is not the last. Read on to a puzzle
      // or the end, unless a new filter takes over.
      do {
        if (next) q.set("cursor", next);
        page = await api(`/api/v1/puzzles?${q}`);
        next = page.next;
      } while (!page.puzzles.length && page.more && mine === listing);
    } catch (e) {
      err = e;
    }
    if (mine !== listing) return;
    pending = false;
    if (err) {
      // A filter the server refuses lists nothing, not the last filter's puzzles.
      if (first) {
        body.replaceChildren();
        $("more").hidden = true;
      }
      say(err.message);
      return;
    }
    say("");
    if (first) body.replaceChildren();
    for (const p of page.puzzles) {
      const box = el("input", { type: "checkbox", checked: picked.has(String(p.id)) });
      box.dataset.id = p.id;
      box.setAttribute("aria-label", `Pick puzzle ${p.id}`);
      body.append(el("tr", {},
        el("td", {}, box),
        el("td", {}, el("a", { href: `/puzzles/${p.id}` }, `#${p.id}`)),
        el("td", { className: "size" }, `${p.size}x${p.size}`), el("td", {}, p.level_name), el("td", {}, String(p.givens)),
        el("td", {}, p.rating.toFixed(1)), el("td", {}, p.hardest_name || humane(p.hardest))));
    }
    if (first && !page.puzzles.length) {
      body.append(el("tr", {}, el("td", { colSpan: 7 }, "No puzzle matches the filter.")));
    }
    cursor = next;
    $("more").hidden = !page.more;
  }

  // shownQuery is the filter of the list shown: the one in the URL,
  // set when the filter was last submitted, not the form as edited since.
  function shownQuery() {
    const from = new URLSearchParams(location.search), q = new URLSearchParams();
    for (const f of filterFields) {
      const v = (from.get(f) || "").trim();
      if (v) q.set(f, v);
    }
    return q;
  }

  // printLinks points the print links at the export of the picked
  // puzzles and of the filter of the list shown.
  function printLinks() {
    const a = $("print-picked");
    $("picked-n").textContent = picked.size;
    if (picked.size) {
      a.href = `/api/v1/export?format=pdf&ids=${[...picked].join(",")}`;
      a.setAttribute("aria-disabled", "false");
    } else {
      a.removeAttribute("href");
      a.setAttribute("aria-disabled", "true");
    }
    const q = shownQuery();
    q.set("format", "pdf");
    q.set("count", String(Math.min(1000, Math.max(1, parseInt($("print-count").value, 10) || 12))));
    $("print-filter").href = `/api/v1/export?${q}`;
  }

  // ---- Play.

  // b is the board being played.
  const b = { n: 0, vals: [], given: [], cands: [], wrong: new Set(), revealed: new Set(), sel: 0, pencil: false, cells: [], units: [], peers: [] };
  let solution = null, steps = null, step = -1, puzzleID = 0;
  const hint = { cells: new Set(), targets: new Set(), elims: new Map() };
  // undos holds the page as it was before each change of values or
  // pencil marks, for Undo, and redos the page as it was before each
  // Undo, for Redo; edits counts the changes, so that a verdict worked
  // out for a grid since changed is dropped.
  let undos = [], redos = [], edits = 0;

  // mount lays out the grid of a puzzle string of N*N characters.
  function mount(puzzle) {
    const n = Math.round(Math.sqrt(puzzle.length));
    if (n * n !== puzzle.length || n < 1 || n > 25) throw new Error(`a puzzle of ${puzzle.length} characters is not a square grid`);
    const [br, bc] = shape(n);
    Object.assign(b, { n, sel: 0, cells: [], wrong: new Set(), revealed: new Set() });
    undos = [];
    redos = [];
    edits++;
    historyButtons();
    b.vals = [...puzzle].map((ch) => Math.min(valueOf(ch), n));
    b.given = b.vals.map((v) => v > 0);
    b.cands = b.vals.map(() => 0);
    b.units = [];
    for (let k = 0; k < n; k++) {
      const row = [], col = [], box = [];
      for (let j = 0; j < n; j++) {
        row.push(k * n + j);
        col.push(j * n + k);
        const r = Math.floor(k / (n / bc)) * br + Math.floor(j / bc), c = (k % (n / bc)) * bc + (j % bc);
        box.push(r * n + c);
      }
      b.units.push(row, col, box);
    }
    b.peers = b.vals.map((_, i) => new Set(b.units.filter((u) => u.includes(i)).flat().filter((j) => j !== i)));
    const grid = $("grid"), wrap = $("grid-wrap");
    wrap.style.setProperty("--n", n);
    wrap.style.setProperty("--cr", Math.ceil(Math.sqrt(n)));
    wrap.classList.toggle("dense", n >= 16);
    document.querySelector(".board").classList.toggle("dense", n >= 16);
    grid.setAttribute("aria-rowcount", n);
    grid.setAttribute("aria-colcount", n);
    const rows = [];
    for (let r = 0; r < n; r++) {
      const row = el("div");
      row.setAttribute("role", "row");
      for (let c = 0; c < n; c++) {
        const cell = el("div", { className: "cell", tabIndex: -1 }, el("span", { className: "v" }),
          el("span", { className: "cands" }, ...Array.from({ length: n }, (_, k) => el("span", {}, symbol(k + 1)))));
        cell.setAttribute("role", "gridcell");
        cell.dataset.cell = `${r + 1},${c + 1}`;
        cell.classList.toggle("bx", (c + 1) % bc === 0);
        cell.classList.toggle("by", (r + 1) % br === 0);
        cell.classList.toggle("last-c", c === n - 1);
        cell.classList.toggle("last-r", r === n - 1);
        cell.lastChild.setAttribute("aria-hidden", "true");
        b.cells.push(cell);
        row.append(cell);
      }
      rows.push(row);
    }
    // The links of a chain step are drawn over the grid, one unit a cell.
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "links");
    svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("aria-hidden", "true");
    grid.replaceChildren(...rows, svg);
    wrap.scrollLeft = 0;
    // The pad is one stop of Tab, its first button, and the arrows move
    // within it (padKey): 25 buttons are not 25 stops on the way to Undo.
    $("pad").replaceChildren(...Array.from({ length: n }, (_, k) => {
      const btn = el("button", { type: "button", tabIndex: k ? -1 : 0 }, symbol(k + 1));
      btn.addEventListener("click", () => input(k + 1, b.pencil));
      return btn;
    }));
    clearHint();
    render();
    cut();
  }

  // foot measures what sticks to the foot of the screen: the status line,
  // and on a small screen the hint's step above it. The step sits on the
  // line, and the page scrolls a focused button clear of both.
  function foot() {
    const status = $("status").offsetHeight, h = $("hints");
    const step = getComputedStyle(h).position === "sticky" ? h.offsetHeight : 0;
    document.documentElement.style.setProperty("--status-h", `${status}px`);
    document.documentElement.style.setProperty("--foot", `${status + step}px`);
  }

  // conflicts returns the cells whose value another cell of a row,
  // column or box repeats.
  function conflicts() {
    const out = new Set();
    for (const u of b.units) {
      const seen = new Map();
      for (const i of u) {
        const v = b.vals[i];
        if (!v) continue;
        if (seen.has(v)) out.add(i).add(seen.get(v));
        else seen.set(v, i);
      }
    }
    return out;
  }

  function render() {
    const bad = conflicts(), selv = b.vals[b.sel];
    b.cells.forEach((cell, i) => {
      const v = b.vals[i], [r, c] = cell.dataset.cell.split(",");
      cell.firstChild.textContent = symbol(v);
      const marks = [...cell.lastChild.children];
      marks.forEach((m, k) => {
        m.className = hint.elims.get(i)?.has(k + 1) ? "elim" : (!v && b.cands[i] & (1 << (k + 1))) ? "" : "gone";
      });
      const cls = cell.classList;
      cls.toggle("given", b.given[i]);
      cls.toggle("conflict", bad.has(i));
      cls.toggle("wrong", b.wrong.has(i));
      cls.toggle("revealed", b.revealed.has(i));
      cls.toggle("hint", hint.cells.has(i));
      cls.toggle("hint-target", hint.targets.has(i));
      cls.toggle("sel", i === b.sel);
      cls.toggle("peer", i !== b.sel && b.peers[b.sel].has(i));
      cls.toggle("same", i !== b.sel && selv > 0 && v === selv);
      cell.tabIndex = i === b.sel ? 0 : -1;
      cell.setAttribute("aria-selected", i === b.sel);
      cell.setAttribute("aria-readonly", b.given[i]);
      if (bad.has(i) || b.wrong.has(i)) cell.setAttribute("aria-invalid", "true");
      else cell.removeAttribute("aria-invalid");
      let label = `Row ${r}, column ${c}: ${v ? symbol(v) + (b.given[i] ? ", given" : "") : "empty"}`;
      const cs = marks.filter((m) => !m.className).map((m) => m.textContent);
      if (cs.length) label += `, pencil marks ${cs.join(" ")}`;
      if (bad.has(i)) label += ", conflicts";
      if (b.wrong.has(i)) label += ", wrong";
      if (hint.cells.has(i) || hint.targets.has(i)) label += ", in the hint";
      cell.setAttribute("aria-label", label);
    });
    // The selected cell's marks, large beside the grid: in a dense grid
    // or on a phone a cell's own are a few pixels high.
    const sel = b.cells[b.sel], [sr, sc] = sel.dataset.cell.split(","), where = `row ${sr}, column ${sc}`;
    const shown = [...sel.lastChild.children].filter((m) => m.className !== "gone");
    $("cell-marks").replaceChildren(...(shown.length
      ? [`Marks in ${where}:`, ...shown.map((m) => el("span", { className: m.className }, m.textContent))]
      : [`No marks in ${where}.`]));
  }

  // cut marks the grid's frame as cut at the left or the right, where a
  // grid wider than the screen scrolls sideways: that edge fades.
  function cut() {
    const w = $("grid-wrap");
    w.classList.toggle("cut-left", w.scrollLeft > 1);
    w.classList.toggle("cut-right", w.scrollLeft + w.clientWidth < w.scrollWidth - 1);
  }

  function select(i, focus) {
    b.sel = Math.max(0, Math.min(b.n * b.n - 1, i));
    render();
    if (focus) b.cells[b.sel].focus();
  }

  // input enters v in the selected cell, or with pencil toggles it as a
  // candidate; 0 clears the cell.
  function input(v, pencil) {
    const i = b.sel;
    say("");
    if (b.given[i]) {
      say("A given cannot change.");
      return;
    }
    const filled = change(() => {
      if (pencil && v) {
        if (!b.vals[i]) b.cands[i] ^= 1 << v;
      } else if (!v && !b.vals[i]) {
        b.cands[i] = 0;
      } else {
        b.vals[i] = v;
        b.wrong.delete(i);
        b.revealed.delete(i);
      }
    });
    render();
    if (filled) judge();
  }

  // snapshot is the page at one step of the play: the values, pencil
  // marks and revealed cells, the cell selected and the hint step shown.
  function snapshot() {
    return { vals: [...b.vals], cands: [...b.cands], revealed: new Set(b.revealed), sel: b.sel, step };
  }

  // change makes the change f to the board as one step Undo takes back,
  // and says whether a value changed; a change that changes nothing is
  // no step. A new step leaves nothing to redo.
  function change(f) {
    const before = snapshot();
    f();
    const vals = b.vals.some((v, i) => v !== before.vals[i]);
    if (!vals && b.cands.every((m, i) => m === before.cands[i])) return false;
    undos.push(before);
    redos = [];
    edits++;
    historyButtons();
    return vals;
  }

  // historyButtons marks Undo and Redo disabled when there is nothing
  // to take back or make again; aria-disabled keeps them focusable.
  function historyButtons() {
    $("undo").setAttribute("aria-disabled", String(!undos.length));
    $("redo").setAttribute("aria-disabled", String(!redos.length));
  }

  // undo puts the page back as it was before its last change: the board,
  // the cell selected and the hint shown then.
  function undo() {
    travel(undos, redos, "Nothing to undo.");
  }

  // redo puts the page back as it was before the last Undo.
  function redo() {
    travel(redos, undos, "Nothing to redo.");
  }

  // travel restores the last snapshot of from, keeping the page as it is
  // now on to, the other way's history. Check's marks stay on the cells
  // whose values stay.
  function travel(from, to, none) {
    const h = from.pop();
    if (!h) {
      say(none);
      return;
    }
    to.push(snapshot());
    for (const i of b.wrong) if (b.vals[i] !== h.vals[i]) b.wrong.delete(i);
    Object.assign(b, { vals: h.vals, cands: h.cands, revealed: h.revealed });
    edits++;
    historyButtons();
    say("");
    if (steps) showStep(h.step);
    select(h.sel, b.cells.includes(document.activeElement));
    judge();
  }

  // judge says, once every cell is filled, whether the grid is solved, as
  // Check would but without marking the wrong cells: the player hears it
  // whichever way the last cell came, a key, the pad or a hint.
  async function judge() {
    if (b.vals.some((v) => !v)) return;
    const mine = edits;
    let sol;
    try {
      sol = await theSolution();
    } catch (e) {
      say(e.message);
      return;
    }
    if (mine !== edits) return;
    say(b.vals.some((v, i) => v !== sol[i]) ? "Every cell is filled, but not every one is right: Check marks the wrong ones." : verdict());
  }

  // verdict is what a full grid that is right says: solved, or how many
  // of its cells were revealed rather than solved.
  function verdict() {
    const shown = [...b.revealed].filter((i) => !b.given[i]).length;
    return shown ? `Every cell is right, ${shown} of them revealed.` : "Solved: every cell is right.";
  }

  // typed reads the value a key enters, and whether it pencils it in,
  // or null for a key that enters nothing. The character typed decides,
  // whatever it took to type it: AZERTY needs Shift for its digits, and
  // they are values there as anywhere. The digit key's other character
  // (Shift+1 gives "!" on QWERTY, 1 without Shift "&" on AZERTY) pencils
  // its digit in, as Shift does with a letter or a keypad digit. Windows
  // turns Shift+keypad 1 into End, with NumLock still on: only NumLock
  // off leaves the keypad's arrows, Home and End to move.
  function typed(e) {
    const pad = /^Numpad([0-9])$/.exec(e.code);
    if (pad && (e.key === pad[1] || e.shiftKey || e.getModifierState("NumLock"))) {
      return { v: +pad[1], pencil: e.shiftKey || e.key !== pad[1] };
    }
    if (/^[1-9]$/.test(e.key)) return { v: +e.key, pencil: false };
    const row = /^Digit([1-9])$/.exec(e.code);
    if (row && e.key.length === 1) return { v: +row[1], pencil: true };
    if (/^[a-z]$/i.test(e.key)) return { v: valueOf(e.key), pencil: e.shiftKey };
    return null;
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const n = b.n, r = Math.floor(b.sel / n), c = b.sel % n;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const t = typed(e);
    if (t && t.v >= 1 && t.v <= n) input(t.v, b.pencil || t.pencil);
    else if (t && t.v === 0) input(0, false);
    else if (t) return;
    else if (moves[e.key]) {
      const [dr, dc] = moves[e.key];
      select(Math.max(0, Math.min(n - 1, r + dr)) * n + Math.max(0, Math.min(n - 1, c + dc)), true);
    } else if (e.key === "Home") select(r * n, true);
    else if (e.key === "End") select(r * n + n - 1, true);
    else if (e.key === " ") togglePencil();
    else if (["Backspace", "Delete", ".", "0"].includes(e.key)) input(0, false);
    else return;
    e.preventDefault();
  }

  // padKey moves the focus within the pad, a toolbar of one Tab stop:
  // Left and Right to the previous and next button, Up and Down a row
  // of the pad as it wraps on the screen, Home and End to its ends.
  function padKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const btns = [...$("pad").children], at = btns.indexOf(document.activeElement);
    if (at < 0) return;
    const cols = btns.filter((x) => x.offsetTop === btns[0].offsetTop).length;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - cols, ArrowDown: at + cols, Home: 0, End: btns.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to >= 0 && to < btns.length) btns[to].focus();
  }

  // togglePencil turns pencil mode on or off, and says which: Space in
  // the grid changes it far from the button that shows it.
  function togglePencil() {
    b.pencil = !b.pencil;
    $("pencil").setAttribute("aria-pressed", b.pencil);
    say(`Pencil mode ${b.pencil ? "on" : "off"}.`);
  }

  // fill pencils in, in every empty cell, the values no peer holds.
  function fill() {
    change(() => b.vals.forEach((v, i) => {
      if (v) return;
      let m = 0;
      for (let k = 1; k <= b.n; k++) m |= 1 << k;
      for (const j of b.peers[i]) m &= ~(1 << b.vals[j]);
      b.cands[i] = m;
    }));
    render();
  }

  async function theSolution() {
    if (!solution) solution = [...(await api(`/api/v1/puzzles/${puzzleID}?solution=1`)).solution].map(valueOf);
    return solution;
  }

  // check marks the entered values the solution does not have.
  async function check() {
    const sol = await theSolution();
    b.wrong = new Set(b.vals.map((v, i) => (v && !b.given[i] && v !== sol[i] ? i : -1)).filter((i) => i >= 0));
    render();
    const empty = b.vals.filter((v) => !v).length;
    say(b.wrong.size ? `${b.wrong.size} wrong (marked), ${empty} empty.` : empty ? `No mistake so far; ${empty} empty.` : verdict());
  }

  // reveal fills the cells with the solution's values, marked as
  // revealed, once the player confirms: one step for Undo.
  async function reveal() {
    if (!confirm("Reveal the solution? It fills every cell; Undo takes it back.")) return;
    const sol = await theSolution();
    change(() => sol.forEach((v, i) => {
      if (b.vals[i] !== v) {
        b.vals[i] = v;
        b.revealed.add(i);
      }
    }));
    b.wrong.clear();
    render();
    say("The solution is revealed.");
  }

  function clearHint() {
    hint.cells.clear();
    hint.targets.clear();
    hint.elims.clear();
    document.querySelector("#grid svg.links")?.replaceChildren();
  }

  // drawLinks draws the links of a chain step between the candidates
  // they join, where the pencil marks sit: strong links solid, weak ones
  // dashed, an arrow at each link's end, on nodes filled.
  function drawLinks(links) {
    const svg = document.querySelector("#grid svg.links");
    if (!svg || !links || !links.length) return;
    const cr = Math.ceil(Math.sqrt(b.n)), rows = Math.ceil(b.n / cr);
    const xy = (p) => [p.col - 1 + 0.06 + 0.88 * (((p.digit - 1) % cr) + 0.5) / cr,
      p.row - 1 + 0.06 + 0.88 * (Math.floor((p.digit - 1) / cr) + 0.5) / rows];
    const mk = (tag, attrs) => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      return e;
    };
    const defs = mk("defs", {});
    const marker = mk("marker", { id: "link-end", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" });
    marker.append(mk("path", { d: "M0,0 L10,5 L0,10 z", class: "link-head" }));
    defs.append(marker);
    svg.append(defs);
    const r = 0.3 / cr;
    const nodes = new Map();
    for (const l of links) {
      const [x1, y1] = xy(l.from), [x2, y2] = xy(l.to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      svg.append(mk("line", {
        x1: x1 + ux * r, y1: y1 + uy * r, x2: x2 - ux * r, y2: y2 - uy * r,
        class: l.strong ? "link strong" : "link weak", "marker-end": "url(#link-end)",
      }));
      for (const p of [l.from, l.to]) nodes.set(`${p.row},${p.col},${p.digit}`, p);
    }
    for (const p of nodes.values()) {
      const [x, y] = xy(p);
      svg.append(mk("circle", { cx: x, cy: y, r, class: p.on ? "node on" : "node off" }));
    }
  }

  // showStep highlights step k's cells and what it concludes.
  function showStep(k) {
    step = k;
    clearHint();
    const at = (p) => (p.row - 1) * b.n + p.col - 1;
    const st = steps[k];
    if (st) {
      st.cells.forEach((p) => hint.cells.add(at(p)));
      st.placements.forEach((p) => hint.targets.add(at(p)));
      st.eliminations.forEach((p) => {
        hint.targets.add(at(p));
        if (!hint.elims.has(at(p))) hint.elims.set(at(p), new Set());
        hint.elims.get(at(p)).add(p.digit);
      });
      drawLinks(st.links);
      $("hint-text").textContent = `Step ${k + 1} of ${steps.length} (rating ${st.rating.toFixed(1)}): ${st.text}`;
    } else {
      $("hint-text").textContent = k < 0 ? "" : "No more steps: the hints end here.";
    }
    // aria-disabled, not disabled, as on Undo: the button keeps the focus
    // when the last step is reached.
    $("hint-prev").setAttribute("aria-disabled", String(k <= 0));
    $("hint-next").setAttribute("aria-disabled", String(k >= steps.length - 1));
    $("hint-apply").setAttribute("aria-disabled", String(!st));
    $("hints").classList.toggle("stepping", k >= 0);
    foot();
    render();
  }

  // nextStep shows the step d after the one shown, fetching the hints
  // first; clicks while they are worked out (seconds on 16x16) wait for
  // them rather than fetch them again and skip steps.
  let hintsComing = false;
  async function nextStep(d) {
    if (!steps) {
      if (hintsComing) return;
      hintsComing = true;
      say("Working out the hints…");
      try {
        const h = await api(`/api/v1/puzzles/${puzzleID}/hints`);
        steps = h.steps;
        say(h.unfinished ? "The grader does not finish this puzzle: the hints stop short." : "");
      } catch (e) {
        say(e.message);
        return;
      } finally {
        hintsComing = false;
      }
    }
    showStep(Math.max(0, Math.min(steps.length - 1, step + d)));
  }

  // apply makes the shown step's placements and eliminations, then shows
  // the next step.
  function apply() {
    const st = steps && steps[step];
    if (!st) return;
    const at = (p) => (p.row - 1) * b.n + p.col - 1;
    const filled = change(() => {
      st.placements.forEach((p) => {
        if (b.given[at(p)] || b.vals[at(p)] === p.digit) return;
        b.vals[at(p)] = p.digit;
        b.wrong.delete(at(p));
        b.revealed.delete(at(p));
      });
      st.eliminations.forEach((p) => { b.cands[at(p)] &= ~(1 << p.digit); });
    });
    if (step < steps.length - 1) showStep(step + 1);
    else render();
    if (filled) judge();
  }

  async function play(id) {
    puzzleID = id;
    $("play").hidden = false;
    let p;
    try {
      p = await api(`/api/v1/puzzles/${id}`);
      mount(p.puzzle);
    } catch (e) {
      // A puzzle there is but that does not read (500) is no missing one.
      const what = e.status >= 500 ? "Puzzle unavailable" : "No such puzzle";
      document.title = `${what} · sudokubank`;
      $("p-title").textContent = what;
      document.querySelector(".board").hidden = true;
      say(e.message);
      return;
    }
    // The ID as the bank has it, not as the path spelled it (007).
    id = puzzleID = p.id;
    document.title = `Puzzle ${id} · sudokubank`;
    $("p-title").textContent = `Puzzle ${id}`;
    $("p-meta").textContent = `${p.level_name}, rating ${p.rating.toFixed(1)}, ${p.givens} givens; hardest step: ${p.hardest_name || humane(p.hardest)}.`;
    $("p-print").href = `/api/v1/export?format=pdf&ids=${id}`;
    // Back to the list the puzzle was opened from, filter and all.
    const ref = document.referrer ? new URL(document.referrer) : null;
    if (ref && ref.origin === location.origin && ref.pathname === "/") $("back").href = ref.pathname + ref.search;
    const grid = $("grid");
    $("grid-wrap").addEventListener("scroll", cut, { passive: true });
    new ResizeObserver(cut).observe($("grid-wrap"));
    const feet = new ResizeObserver(foot);
    feet.observe($("status"));
    feet.observe($("hints"));
    grid.addEventListener("keydown", onKey);
    grid.addEventListener("click", (e) => {
      const cell = e.target.closest(".cell");
      if (cell) select(b.cells.indexOf(cell), true);
    });
    grid.addEventListener("focusin", (e) => {
      const i = b.cells.indexOf(e.target);
      if (i >= 0 && i !== b.sel) select(i, false);
    });
    // Anywhere on the page Ctrl+Z or Cmd+Z takes back a change, and
    // Ctrl+Y, Ctrl+Shift+Z or Cmd+Shift+Z makes it again (Cmd+Y is the
    // browser's history on a Mac, and stays so): a click on text or
    // blank space leaves the focus on main or the body, outside the play
    // section, and the puzzle's page has no text field of its own.
    document.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) undo();
      else if (k === "z" || (k === "y" && e.ctrlKey && !e.metaKey && !e.shiftKey)) redo();
      else return;
      e.preventDefault();
    });
    // A pointer's click on the pad or a tool leaves the focus in the
    // grid, where arrows and digits go on working; Tab still reaches the
    // buttons, and Enter or Space on them works as ever.
    for (const g of [$("pad"), ...document.querySelectorAll("#play .tools")]) {
      g.addEventListener("mousedown", (e) => { if (e.target.closest("button")) e.preventDefault(); });
    }
    $("pad").addEventListener("keydown", padKey);
    // The button last focused is the pad's Tab stop.
    $("pad").addEventListener("focusin", (e) => {
      for (const x of $("pad").children) x.tabIndex = x === e.target ? 0 : -1;
    });
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("pencil").addEventListener("click", togglePencil);
    $("erase").addEventListener("click", () => input(0, false));
    $("fill").addEventListener("click", fill);
    const safely = (f) => () => f().catch((e) => say(e.message));
    $("check").addEventListener("click", safely(check));
    $("reveal").addEventListener("click", safely(reveal));
    // A button marked disabled does nothing, as a disabled one would.
    const unless = (id, f) => $(id).addEventListener("click", () => { if ($(id).getAttribute("aria-disabled") !== "true") f(); });
    unless("hint-next", () => nextStep(1));
    unless("hint-prev", () => nextStep(-1));
    unless("hint-apply", apply);
  }

  // For tests and for other grid sizes to come.
  window.sudokubank = { shape, symbol, valueOf, mount };

  // Every /puzzles/X is a puzzle's page: the server serves it for any X,
  // with 404 for an X that is no puzzle, and the API says why.
  const m = /^\/puzzles\/([^/]+)$/.exec(location.pathname);
  if (m) play(m[1]);
  else browse();
})();

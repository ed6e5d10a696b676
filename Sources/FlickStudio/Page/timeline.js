// The timeline: a ruler with the template's events (entries with an id: click one to seek), then
// one row per animated layer × property with its segments coloured by kind and hand-over
// markers at the joins (red where the velocity jumps). Clicking a segment seeks to its start;
// clicking a row's name selects that layer and property in the inspector. The kinds and their
// colours come from the server (`kinds` of /api/template), so a new kind needs no change here.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function seconds(t) {
  return `${t.toFixed(2)} s`;
}

const numbers = (v) => `[${v.map((x) => +x.toPrecision(4)).join(', ')}]`;

/** A join's tooltip: the velocity just before and just after it, and whether it jumps. */
function joinText(time, limit) {
  const verdict = limit.discontinuous
    ? `velocity jumps by ${+limit.velocityJump.toPrecision(3)} (tolerance ${+limit.tolerance.toPrecision(2)})`
    : 'velocity carried over';
  return `hand-over at ${seconds(time)}: ${verdict}\nvelocity before ${numbers(limit.before.velocity)}, ` +
    `after ${numbers(limit.after.velocity)}`;
}

/** A "nice" tick step (1, 2 or 5 × 10^n seconds) for about `count` ticks over `duration`. */
function tickStep(duration, count) {
  const raw = duration / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

export class Timeline {
  /** `root`: the timeline section; `onSeek(seconds)`, `onPick(layer, property)`. */
  constructor(root, onSeek, onPick) {
    this.root = root;
    this.onSeek = onSeek;
    this.onPick = onPick;
    this.duration = 1;
    this.rows = root.querySelector('.tl-rows');
    this.ruler = root.querySelector('.tl-ruler');
    this.playhead = root.querySelector('.tl-playhead');
    this.legend = root.querySelector('.tl-legend');
    this.selected = null;
    this.colors = new Map();
    this.ruler.addEventListener('pointerdown', (event) => this.scrubRuler(event));
  }

  /** The legend: each kind the tracks use with its colour, then the two join markers. */
  buildLegend(kinds) {
    const key = (mark, text) => {
      const item = element('span', 'tl-key');
      mark.setAttribute('aria-hidden', 'true');
      item.append(mark, document.createTextNode(text));
      return item;
    };
    this.legend.replaceChildren(
      ...kinds.map((kind) => {
        const swatch = element('span', 'tl-swatch');
        swatch.style.setProperty('--k', kind.color);
        return key(swatch, kind.name);
      }),
      key(element('span', 'tl-join-key'), 'hand-over'),
      key(element('span', 'tl-join-key disc'), 'velocity jump'),
    );
  }

  percent(t) {
    return `${(Math.min(Math.max(t / this.duration, 0), 1) * 100).toFixed(4)}%`;
  }

  /** No template state to show: no rows, legend or events, and `message` in their place. */
  clear(message) {
    this.duration = 1;
    this.colors = new Map();
    this.buildLegend([]);
    this.buildRuler([]);
    this.rows.replaceChildren(element('p', 'tl-empty', message));
    this.root.querySelector('.tl-count').textContent = '';
    this.setTime(0);
  }

  /** Rebuilds the rows from a template state (tracks, events, canvas). */
  render(state) {
    const canvas = state.canvas ?? { duration: 1 };
    this.duration = canvas.duration || 1;
    this.colors = new Map((state.kinds ?? []).map((k) => [k.name, k.color]));
    this.buildLegend(state.kinds ?? []);
    this.buildRuler(state.events ?? []);
    const tracks = state.tracks ?? [];
    const rows = tracks.map((track) => this.row(track));
    if (rows.length === 0) {
      const empty = element('p', 'tl-empty', 'Nothing is animated in this template.');
      this.rows.replaceChildren(empty);
    } else {
      this.rows.replaceChildren(...rows);
    }
    this.root.querySelector('.tl-count').textContent = `${tracks.length} track${tracks.length === 1 ? '' : 's'}`;
    this.markSelected();
  }

  buildRuler(events) {
    const ticks = this.ruler.querySelector('.tl-ticks');
    const step = tickStep(this.duration, 8);
    const nodes = [];
    for (let t = 0; t <= this.duration + 1e-9; t += step) {
      const tick = element('span', 'tl-tick', `${+t.toFixed(3)}s`);
      tick.style.left = this.percent(t);
      nodes.push(tick);
    }
    for (const ev of events) {
      const flag = element('button', 'tl-event', ev.name);
      flag.type = 'button';
      flag.dataset.time = String(ev.time);
      flag.dataset.name = ev.name;
      flag.style.left = this.percent(ev.time);
      const span = ev.end == null ? '' : ` → ${seconds(ev.end)}`;
      flag.title = `${ev.name}: ${seconds(ev.time)}${span}`;
      flag.setAttribute('aria-label', `Event ${ev.name} at ${seconds(ev.time)}: seek`);
      flag.addEventListener('click', (e) => {
        e.stopPropagation();
        this.onSeek(ev.time);
      });
      flag.addEventListener('pointerdown', (e) => e.stopPropagation());
      nodes.push(flag);
    }
    ticks.replaceChildren(...nodes);
  }

  row(track) {
    const row = element('div', 'tl-row');
    row.dataset.layer = track.layer;
    row.dataset.property = track.property;
    const name = element('button', 'tl-name');
    name.type = 'button';
    name.append(element('span', 'tl-layer', track.layer), element('span', 'tl-prop', track.property));
    name.setAttribute('aria-label', `Inspect ${track.property} of ${track.layer}`);
    name.addEventListener('click', () => this.onPick(track.layer, track.property));
    const lane = element('div', 'tl-lane');
    for (const segment of track.segments ?? []) {
      const end = segment.end ?? this.duration;
      const block = element('button', `tl-seg${segment.end == null ? ' open' : ''}`);
      block.style.setProperty('--k', this.colors.get(segment.kind) ?? '#9ca3af');
      block.type = 'button';
      block.style.left = this.percent(segment.start);
      block.style.width = `calc(${this.percent(end)} - ${this.percent(segment.start)})`;
      const label = segment.label || segment.kind;
      const span = `${seconds(segment.start)} → ${segment.end == null ? 'open' : seconds(segment.end)}`;
      block.title = `${label}\n${span}`;
      block.setAttribute('aria-label', `${track.layer} ${track.property}: ${label}, ${span}. Seek to its start`);
      block.dataset.start = String(segment.start);
      block.dataset.kind = segment.kind;
      const text = element('span', 'tl-seg-label', label);
      block.append(text);
      block.addEventListener('click', () => {
        this.onSeek(segment.start);
        this.onPick(track.layer, track.property, { keepTime: true });
      });
      lane.append(block);
    }
    const limits = new Map((track.handOvers ?? []).map((h) => [h.time, h]));
    for (const join of track.joins ?? []) {
      const limit = limits.get(join);
      const mark = element('span', `tl-join${limit?.discontinuous ? ' disc' : ''}`);
      mark.style.left = this.percent(join);
      mark.dataset.time = String(join);
      mark.title = limit ? joinText(join, limit) : `hand-over at ${seconds(join)}`;
      mark.setAttribute('aria-hidden', 'true');
      lane.append(mark);
    }
    row.append(name, lane);
    return row;
  }

  /** Highlights the rows of the selected layer (and property). */
  select(layer, property) {
    this.selected = layer ? { layer, property } : null;
    this.markSelected();
  }

  markSelected() {
    for (const row of this.rows.querySelectorAll('.tl-row')) {
      const sel = this.selected;
      row.classList.toggle('layer-selected', !!sel && row.dataset.layer === sel.layer);
      row.classList.toggle(
        'prop-selected', !!sel && row.dataset.layer === sel.layer && row.dataset.property === sel.property);
    }
  }

  /** Moves the playhead to `t` seconds. */
  setTime(t) {
    const f = Math.min(Math.max(t / this.duration, 0), 1);
    this.root.style.setProperty('--t', f.toFixed(5));
  }

  scrubRuler(event) {
    const rect = this.ruler.getBoundingClientRect();
    const seek = (e) => this.onSeek(((e.clientX - rect.left) / rect.width) * this.duration);
    seek(event);
    const move = (e) => seek(e);
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }
}

// Compare: a goldens folder (`flick snapshot`) or a `flick verify` report, frame by frame:
// golden | actual | diff side by side, a slider, or flicker between golden and actual, with the
// changed region enlarged; the chosen failed frame of a report, or all of them, can be accepted
// (the code of `flick accept [--frame NAME]`: only those goldens are rewritten, atomically).

import { apiURL, getJSON, postJSON } from './api.js';

/** A frame status as a class: pass (match), fail (changed, size mismatch), golden, or warn. */
function category(status) {
  if (status === 'match' || status === 'pass' || status === 'recorded') return 'pass';
  if (status === 'changed' || status === 'sizeMismatch' || status === 'fail') return 'fail';
  if (status === 'golden') return 'golden';
  return 'warn';
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Compare {
  constructor(dialog, notify) {
    this.dialog = dialog;
    this.notify = notify;
    this.source = null;
    this.frames = [];
    this.frame = null;
    this.regions = new Map();
    this.mode = 'side';
    this.timer = null;
    this.$ = (selector) => dialog.querySelector(selector);
    this.$('.cmp-open').addEventListener('submit', (event) => {
      event.preventDefault();
      this.open(this.$('.cmp-path').value.trim(), this.$('.cmp-kind').value);
    });
    for (const button of dialog.querySelectorAll('[data-mode]')) {
      button.addEventListener('click', () => this.setMode(button.dataset.mode));
    }
    this.$('.cmp-slider').addEventListener('input', (event) => {
      this.$('.cmp-stack').style.setProperty('--split', `${event.target.value}%`);
    });
    this.$('.cmp-accept').addEventListener('click', () => this.accept());
    this.$('.cmp-accept-one').addEventListener('click', () => this.frame && this.accept([this.frame.name]));
    this.$('.cmp-against').addEventListener('change', () => this.frame && this.select(this.frame));
    dialog.addEventListener('close', () => this.stopFlicker());
  }

  show() {
    this.dialog.showModal();
    this.$('.cmp-path').focus();
  }

  /**
   * Opens a verify report (its folder or `summary.json`) or a goldens folder (`kind` report or
   * goldens), relative to the opened folder.
   */
  async open(path, kind = 'report') {
    if (!path) return;
    this.$('.cmp-path').value = path;
    this.$('.cmp-kind').value = kind;
    const status = this.$('.cmp-status');
    status.textContent = 'Loading…';
    status.classList.remove('error');
    const source = kind === 'goldens' ? { goldens: path } : { report: path };
    let answer;
    try {
      answer = await getJSON('compare', source);
      this.source = source;
    } catch (error) {
      this.frames = [];
      this.renderList();
      status.textContent = error.message;
      status.classList.add('error');
      return;
    }
    this.frames = answer.frames ?? [];
    const summary = this.source.report ? await this.summary(answer.source) : null;
    this.regions = new Map((summary?.frames ?? []).filter((f) => f.boundingBox).map((f) => [f.name, f.boundingBox]));
    if (this.source.goldens) this.$('.cmp-against').value = this.source.goldens;
    else if (!this.$('.cmp-against').value) this.$('.cmp-against').value = (await this.goldensOf(summary)) ?? '';
    const failed = this.frames.filter((f) => category(f.status) === 'fail').length;
    status.textContent = `${answer.kind === 'report' ? 'Report' : 'Goldens'} · ${this.frames.length} frame${
      this.frames.length === 1 ? '' : 's'}${answer.kind === 'report' ? ` · ${failed} not passing` : ''}`;
    this.renderList();
    this.$('.cmp-accept-row').hidden = !this.source.report;
    this.$('.cmp-accept').disabled = failed === 0;
    this.accepted = [];
    if (this.frames.length) this.select(this.frames.find((f) => category(f.status) === 'fail') ?? this.frames[0]);
  }

  /** The report's own summary.json (changed regions, golden paths), or null. */
  async summary(folder) {
    try {
      return await getJSON('file', { path: `${folder.replace(/\/$/, '')}/summary.json` });
    } catch {
      return null;
    }
  }

  /**
   * The goldens folder a report was verified against, relative to the opened folder: the report
   * names each golden by its absolute path, so the shortest tail of that folder the server opens
   * as goldens is it.
   */
  async goldensOf(summary) {
    const golden = summary?.frames?.find((f) => f.golden)?.golden;
    if (!golden) return null;
    const parts = golden.split('/').slice(0, -1).filter(Boolean);
    for (let n = 1; n <= Math.min(parts.length, 8); n += 1) {
      const candidate = parts.slice(-n).join('/');
      try {
        await getJSON('compare', { goldens: candidate });
        return candidate;
      } catch {
        // not this one
      }
    }
    return null;
  }

  renderList() {
    const list = this.$('.cmp-frames');
    list.replaceChildren(
      ...this.frames.map((frame) => {
        const item = element('li');
        const button = element('button', `cmp-frame s-${category(frame.status)}`);
        button.type = 'button';
        button.dataset.name = frame.name;
        const time = typeof frame.time === 'number' ? `${frame.time.toFixed(2)} s` : '';
        button.append(
          element('span', 'cmp-dot'), element('span', 'cmp-name', frame.name), element('span', 'cmp-time', time));
        button.setAttribute('aria-label', `${frame.name}: ${frame.status}`);
        button.addEventListener('click', () => this.select(frame));
        item.append(button);
        return item;
      }),
    );
  }

  /** An image of a frame: from the report, or (a report keeps no golden copy) from the goldens folder. */
  imageURL(frame, kind) {
    const against = this.$('.cmp-against').value.trim();
    if (kind === 'golden' && this.source.report && !(frame.images ?? []).includes('golden') && against) {
      return apiURL('compare/image', { goldens: against, frame: frame.name, kind });
    }
    return apiURL('compare/image', { ...this.source, frame: frame.name, kind });
  }

  /** The kinds of image a frame can show. */
  kinds(frame) {
    const kinds = new Set(frame.images ?? ['golden', 'actual', 'diff']);
    if (this.source.report && this.$('.cmp-against').value.trim()) kinds.add('golden');
    return kinds;
  }

  select(frame) {
    this.frame = frame;
    for (const b of this.dialog.querySelectorAll('.cmp-frame')) {
      b.setAttribute('aria-current', String(b.dataset.name === frame.name));
    }
    const images = this.kinds(frame);
    for (const kind of ['golden', 'actual', 'diff']) {
      for (const img of this.dialog.querySelectorAll(`img[data-kind="${kind}"]`)) {
        const present = images.has(kind);
        img.closest('figure')?.toggleAttribute('hidden', !present);
        img.hidden = !present;
        if (present) img.src = this.imageURL(frame, kind);
        else img.removeAttribute('src');
      }
    }
    this.$('.cmp-accept-one').disabled = !this.acceptable(frame);
    const facts = [`${frame.label ?? frame.name} · ${frame.status}`];
    if (frame.message) facts.push(frame.message);
    this.$('.cmp-facts').textContent = facts.join(' · ');
    this.zoomRegion(frame);
  }

  /** Enlarges the changed region (the frame's `region` {x, y, width, height}) of each image. */
  zoomRegion(frame) {
    const box = this.$('.cmp-zoom');
    const region = this.regions.get(frame.name);
    box.hidden = !region || !this.source.report || !this.kinds(frame).has('actual');
    if (box.hidden) return;
    for (const canvas of box.querySelectorAll('canvas')) {
      const shown = this.kinds(frame).has(canvas.dataset.kind);
      canvas.closest('figure').hidden = !shown;
      if (!shown) continue;
      const img = new Image();
      img.onload = () => {
        const pad = Math.max(8, Math.round(Math.max(region.width, region.height) * 0.25));
        const sx = Math.max(0, region.x - pad);
        const sy = Math.max(0, region.y - pad);
        const sw = Math.min(img.naturalWidth - sx, region.width + 2 * pad);
        const sh = Math.min(img.naturalHeight - sy, region.height + 2 * pad);
        const dpr = window.devicePixelRatio || 1;
        const scale = Math.min(220 / sw, 160 / sh);
        canvas.style.width = `${Math.round(sw * scale)}px`;
        canvas.style.height = `${Math.round(sh * scale)}px`;
        canvas.width = Math.round(sw * scale * dpr);
        canvas.height = Math.round(sh * scale * dpr);
        const g = canvas.getContext('2d');
        g.imageSmoothingEnabled = false;
        g.drawImage(img, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
      };
      img.src = this.imageURL(frame, canvas.dataset.kind);
    }
  }

  setMode(mode) {
    this.mode = mode;
    this.$('.cmp-view').dataset.mode = mode;
    for (const button of this.dialog.querySelectorAll('[data-mode]')) {
      button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
    }
    this.stopFlicker();
    if (mode === 'flicker') {
      const stack = this.$('.cmp-stack');
      this.timer = setInterval(() => stack.classList.toggle('flip'), 450);
    }
  }

  stopFlicker() {
    clearInterval(this.timer);
    this.timer = null;
    this.$('.cmp-stack').classList.remove('flip');
  }

  /** Whether `frame` is a failed (or missing) frame of a report, not accepted yet. */
  acceptable(frame) {
    const status = category(frame.status);
    return !!this.source?.report && (status === 'fail' || frame.status === 'missing') &&
      !(this.accepted ?? []).includes(frame.name);
  }

  /**
   * `flick accept REPORT --against GOLDENS [--frame NAME]…`: the failed frames named by `names`
   * (all of them when absent) become their goldens; the other goldens stay as they are.
   */
  async accept(names) {
    if (!this.source?.report) return;
    const goldens = this.$('.cmp-against').value.trim();
    if (!goldens) {
      this.notify('Name the goldens folder the report was verified against', true);
      this.$('.cmp-against').focus();
      return;
    }
    try {
      const body = { report: this.source.report, goldens };
      if (names) body.frames = names;
      const answer = await postJSON('accept', {}, body);
      this.notify(`Accepted ${answer.accepted.length} frame${answer.accepted.length === 1 ? '' : 's'} into ${goldens}`);
      this.accepted = [...new Set([...(this.accepted ?? []), ...answer.accepted])];
      this.$('.cmp-status').textContent = `Accepted: ${this.accepted.join(', ')}`;
      for (const button of this.dialog.querySelectorAll('.cmp-frame')) {
        if (answer.accepted.includes(button.dataset.name)) button.className = 'cmp-frame s-accepted';
      }
      const left = this.frames.filter((f) => this.acceptable(f));
      this.$('.cmp-accept').disabled = left.length === 0;
      this.$('.cmp-accept-one').disabled = !this.frame || !this.acceptable(this.frame);
    } catch (error) {
      this.notify(error.message, true);
    }
  }
}

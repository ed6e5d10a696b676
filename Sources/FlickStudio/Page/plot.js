// The trace plot: value (top) and velocity (bottom) of one property over the whole clip, from
// /api/trace (the numbers `flick trace --format json` prints), drawn on a devicePixelRatio-aware
// canvas; the cursor follows the scrubber, joins are marked, velocity discontinuities highlighted.

const componentColors = ['#5eb1ff', '#f59e0b', '#34d399', '#f472b6', '#a78bfa', '#fb7185'];

function components(x) {
  return Array.isArray(x) ? x.map(Number) : [Number(x)];
}

function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Times where the velocity jumps: between two samples the change is far larger than elsewhere in
 * the clip and than on either side (a step, not a steep but smooth change). Returns sample indices
 * i such that the jump is between samples i and i + 1.
 */
export function velocityJumps(samples) {
  const jumps = new Set();
  if (samples.length < 3) return [];
  const width = components(samples[0].velocity).length;
  for (let c = 0; c < width; c += 1) {
    const v = samples.map((s) => components(s.velocity)[c] ?? 0);
    const d = v.slice(1).map((x, i) => Math.abs(x - v[i]));
    const range = Math.max(...v) - Math.min(...v);
    if (!(range > 0)) continue;
    const typical = median(d.filter((x) => x > 0));
    for (let i = 0; i < d.length; i += 1) {
      const before = i > 0 ? d[i - 1] : 0;
      const after = i + 1 < d.length ? d[i + 1] : 0;
      if (d[i] > 0.08 * range && d[i] > 6 * typical && d[i] > 2.5 * Math.max(before, after)) jumps.add(i);
    }
  }
  return [...jumps].sort((a, b) => a - b);
}

export class TracePlot {
  constructor(canvas) {
    this.canvas = canvas;
    this.trace = null;
    this.joins = [];
    this.jumps = [];
    this.time = 0;
    this.duration = 1;
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** Shows a trace (`null` clears it); `joins` are the track's hand-over times. */
  set(trace, joins, duration) {
    this.trace = trace;
    this.joins = joins ?? [];
    this.duration = duration || 1;
    this.jumps = trace ? velocityJumps(trace.samples) : [];
    this.draw();
  }

  setTime(t) {
    this.time = t;
    this.draw();
  }

  draw() {
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const cssWidth = canvas.clientWidth;
    const cssHeight = canvas.clientHeight;
    if (cssWidth === 0 || cssHeight === 0) return;
    if (canvas.width !== Math.round(cssWidth * dpr) || canvas.height !== Math.round(cssHeight * dpr)) {
      canvas.width = Math.round(cssWidth * dpr);
      canvas.height = Math.round(cssHeight * dpr);
    }
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cssWidth, cssHeight);
    if (!this.trace || this.trace.samples.length === 0) {
      g.fillStyle = '#6b7280';
      g.font = '12px system-ui, sans-serif';
      g.textAlign = 'center';
      g.fillText('Select an animated property to plot it', cssWidth / 2, cssHeight / 2);
      return;
    }
    const left = 8;
    const right = cssWidth - 8;
    const gap = 22;
    const panel = (cssHeight - gap - 18) / 2;
    const x = (t) => left + (t / this.duration) * (right - left);
    this.panel(g, 'value', 16, panel, x, left, right);
    this.panel(g, 'velocity', 16 + panel + gap, panel, x, left, right);
    // Joins (dashed) and velocity jumps (red bands) over both panels.
    g.save();
    g.setLineDash([3, 3]);
    g.strokeStyle = 'rgba(255, 255, 255, 0.35)';
    for (const join of this.joins) {
      g.beginPath();
      g.moveTo(Math.round(x(join)) + 0.5, 14);
      g.lineTo(Math.round(x(join)) + 0.5, cssHeight - 2);
      g.stroke();
    }
    g.restore();
    const samples = this.trace.samples;
    g.fillStyle = 'rgba(248, 113, 113, 0.28)';
    g.strokeStyle = '#f87171';
    for (const i of this.jumps) {
      const a = x(samples[i].t);
      const b = x(samples[i + 1].t);
      g.fillRect(a, 16 + panel + gap, Math.max(2, b - a), panel);
    }
    // The cursor.
    g.strokeStyle = '#f5f5f5';
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(Math.round(x(this.time)) + 0.5, 12);
    g.lineTo(Math.round(x(this.time)) + 0.5, cssHeight - 2);
    g.stroke();
  }

  panel(g, key, top, height, x, left, right) {
    const samples = this.trace.samples;
    const series = samples.map((s) => components(s[key]));
    const width = Math.max(...series.map((c) => c.length));
    const all = series.flat().filter(Number.isFinite);
    let lo = Math.min(...all, key === 'velocity' ? 0 : Infinity);
    let hi = Math.max(...all, key === 'velocity' ? 0 : -Infinity);
    if (!(hi > lo)) {
      hi = lo + 1;
      lo -= 1;
    }
    const pad = (hi - lo) * 0.08;
    lo -= pad;
    hi += pad;
    const y = (v) => top + height - ((v - lo) / (hi - lo)) * height;
    g.fillStyle = 'rgba(255, 255, 255, 0.03)';
    g.fillRect(left, top, right - left, height);
    if (lo < 0 && hi > 0) {
      g.strokeStyle = 'rgba(255, 255, 255, 0.12)';
      g.beginPath();
      g.moveTo(left, Math.round(y(0)) + 0.5);
      g.lineTo(right, Math.round(y(0)) + 0.5);
      g.stroke();
    }
    g.fillStyle = '#9ca3af';
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'left';
    const unit = this.trace.unit ? ` (${this.trace.unit}${key === 'velocity' ? '/s' : ''})` : '';
    g.fillText(`${key}${unit}`, left, top - 4);
    g.textAlign = 'right';
    g.fillText(`${+hi.toPrecision(3)} … ${+lo.toPrecision(3)}`, right, top - 4);
    g.lineWidth = 1.5;
    g.lineJoin = 'round';
    for (let c = 0; c < width; c += 1) {
      g.strokeStyle = componentColors[c % componentColors.length];
      g.beginPath();
      samples.forEach((s, i) => {
        const v = series[i][c];
        if (!Number.isFinite(v)) return;
        if (i === 0) g.moveTo(x(s.t), y(v));
        else g.lineTo(x(s.t), y(v));
      });
      g.stroke();
    }
  }
}

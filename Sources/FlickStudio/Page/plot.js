// The trace plot: value (top) and velocity (bottom) of one property over the whole clip, from
// /api/trace (the numbers `flick trace --format json` prints), drawn on a devicePixelRatio-aware
// canvas; the cursor follows the scrubber, joins are marked, and each join whose velocity jumps
// (the server's left and right limits, `handOvers` of the track) is highlighted in red with the
// velocity just before (hollow dot) and just after it (filled dot).

const componentColors = ['#5eb1ff', '#f59e0b', '#34d399', '#f472b6', '#a78bfa', '#fb7185'];

function components(x) {
  return Array.isArray(x) ? x.map(Number) : [Number(x)];
}

export class TracePlot {
  constructor(canvas) {
    this.canvas = canvas;
    this.trace = null;
    this.joins = [];
    this.handOvers = [];
    this.time = 0;
    this.duration = 1;
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** Shows a trace (`null` clears it) of `track` (its `joins` and `handOvers`). */
  set(trace, track, duration) {
    this.trace = trace;
    this.joins = track?.joins ?? [];
    this.handOvers = track?.handOvers ?? [];
    this.duration = duration || 1;
    this.draw();
  }

  /** The joins whose velocity jumps beyond the server's tolerance. */
  get jumps() {
    return this.handOvers.filter((h) => h.discontinuous);
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
    // Velocity jumps: a red band over both panels, and the left (hollow) and right (filled)
    // limits of the velocity on the velocity panel.
    const velocityY = this.velocityScale;
    for (const jump of this.jumps) {
      const at = x(jump.time);
      g.fillStyle = 'rgba(248, 113, 113, 0.28)';
      g.fillRect(at - 3, 14, 6, cssHeight - 16);
      jump.before.velocity.forEach((v, c) => {
        const color = componentColors[c % componentColors.length];
        g.strokeStyle = color;
        g.lineWidth = 1.5;
        g.beginPath();
        g.arc(at, velocityY(v), 3.5, 0, 2 * Math.PI);
        g.stroke();
        g.fillStyle = color;
        g.beginPath();
        g.arc(at, velocityY(jump.after.velocity[c] ?? v), 3.5, 0, 2 * Math.PI);
        g.fill();
      });
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
    if (key === 'velocity') this.velocityScale = y;
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

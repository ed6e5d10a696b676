// Playback: a clock at the template's fps (× speed, forwards or backwards) that asks for the frame
// due now on every animation frame. When frames arrive late the loader drops the stale ones, so
// the preview stays on time and shows fewer frames instead of lagging; `achieved` counts the
// frames actually shown over the last second.

export class Playback {
  /** `seek(frame)` shows a frame; `changed(playing)` follows the state. */
  constructor(seek, changed) {
    this.seek = seek;
    this.changed = changed;
    this.playing = false;
    this.loop = true;
    this.direction = 1;
    this.speed = 1;
    this.fps = 30;
    this.frameCount = 1;
    this.shown = [];
    this.total = 0;
    this.handle = 0;
  }

  configure(fps, frameCount) {
    this.fps = fps || 30;
    this.frameCount = Math.max(1, frameCount || 1);
    if (this.playing) this.restart(this.current);
  }

  /** Starts (or changes) playback from `frame`. */
  play(from, direction = 1, speed = 1) {
    this.direction = direction;
    this.speed = speed;
    let start = from;
    if (!this.loop && direction > 0 && from >= this.frameCount - 1) start = 0;
    if (!this.loop && direction < 0 && from <= 0) start = this.frameCount - 1;
    this.restart(start);
    if (!this.playing) {
      this.playing = true;
      this.shown = [];
      this.changed(true);
      this.tick();
    }
  }

  restart(frame) {
    this.originFrame = frame;
    this.originTime = performance.now();
    this.current = frame;
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.handle);
    this.changed(false);
  }

  toggle(from) {
    if (this.playing) this.pause();
    else this.play(from);
  }

  /** J and L: start in that direction, or go faster (1×, 2×, 4×) when already going that way. */
  shuttle(from, direction) {
    if (this.playing && this.direction === direction) this.play(this.current, direction, Math.min(this.speed * 2, 4));
    else this.play(from, direction, 1);
  }

  tick() {
    if (!this.playing) return;
    const elapsed = ((performance.now() - this.originTime) / 1000) * this.fps * this.speed;
    let frame = this.originFrame + this.direction * Math.floor(elapsed);
    const n = this.frameCount;
    if (this.loop) {
      frame = ((frame % n) + n) % n;
    } else if (frame >= n || frame < 0) {
      frame = Math.min(Math.max(frame, 0), n - 1);
      this.current = frame;
      this.seek(frame);
      this.pause();
      return;
    }
    if (frame !== this.current) {
      this.current = frame;
      this.seek(frame);
    }
    this.handle = requestAnimationFrame(() => this.tick());
  }

  /** Call when a frame reaches the screen. */
  frameShown() {
    const now = performance.now();
    this.total += 1;
    this.shown.push(now);
    while (this.shown.length && now - this.shown[0] > 1000) this.shown.shift();
  }

  /** Frames shown per second over the last second of playback (null when paused). */
  get achieved() {
    if (!this.playing || this.shown.length < 2) return null;
    // Over at least a quarter of a second: two frames arriving together are no rate.
    const span = (this.shown[this.shown.length - 1] - this.shown[0]) / 1000;
    return span >= 0.25 ? (this.shown.length - 1) / span : null;
  }
}

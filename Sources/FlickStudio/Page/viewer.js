// The viewer: draws the current frame on a devicePixelRatio-aware canvas (checkerboard behind
// transparency, zoom fit/1×/2×), outlines the selected layer and maps clicks to canvas points.

/** Zoom levels: 'fit' scales the canvas into the stage; numbers are CSS pixels per canvas point. */
export const zooms = ['fit', 1, 2];

export class Viewer {
  constructor(canvas, stage) {
    this.canvas = canvas;
    this.stage = stage;
    this.context = canvas.getContext('2d');
    this.bitmap = null;
    this.size = { width: 960, height: 540 };
    this.zoom = 'fit';
    this.outline = null;
    this.scaleShown = 1;
    new ResizeObserver(() => this.layout()).observe(stage);
    matchMedia(`(resolution: ${devicePixelRatio}dppx)`).addEventListener('change', () => this.layout());
  }

  /** Sets the canvas size in points (the template's canvas). */
  setSize(width, height) {
    if (width === this.size.width && height === this.size.height) return;
    this.size = { width, height };
    this.layout();
  }

  setZoom(zoom) {
    this.zoom = zoom;
    this.layout();
  }

  /** CSS pixels per canvas point at the current zoom. */
  get scale() {
    if (this.zoom !== 'fit') return this.zoom;
    const pad = 48;
    const w = Math.max(1, this.stage.clientWidth - pad);
    const h = Math.max(1, this.stage.clientHeight - pad);
    return Math.min(w / this.size.width, h / this.size.height);
  }

  layout() {
    const scale = this.scale;
    this.scaleShown = scale;
    const cssWidth = Math.max(1, Math.round(this.size.width * scale));
    const cssHeight = Math.max(1, Math.round(this.size.height * scale));
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.width = Math.round(cssWidth * dpr);
    this.canvas.height = Math.round(cssHeight * dpr);
    this.stage.classList.toggle('scrolls', this.zoom !== 'fit');
    this.draw();
  }

  /** Shows a decoded frame (keeps it until the next one: errors leave the last good frame up). */
  show(bitmap) {
    if (this.bitmap && this.bitmap !== bitmap) this.bitmap.close();
    this.bitmap = bitmap;
    this.draw();
  }

  /** Shows nothing (another template is opened): the frame and the outline go. */
  clear() {
    if (this.bitmap) this.bitmap.close();
    this.bitmap = null;
    this.outline = null;
    this.draw();
  }

  /** Outlines a polygon (canvas points: a layer's four corners, or more) or clears the outline with null. */
  setOutline(points) {
    this.outline = points;
    this.draw();
  }

  draw() {
    const { context: g, canvas } = this;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    if (this.bitmap) {
      // Pixel-exact when each image pixel covers a whole number of device pixels; smooth otherwise.
      const ratio = canvas.width / this.bitmap.width;
      g.imageSmoothingEnabled = !(ratio >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-6);
      g.imageSmoothingQuality = 'high';
      g.drawImage(this.bitmap, 0, 0, canvas.width, canvas.height);
    }
    if (this.outline && this.outline.length >= 2) {
      const k = canvas.width / this.size.width;
      const dpr = window.devicePixelRatio || 1;
      g.save();
      g.beginPath();
      this.outline.forEach(([x, y], i) => (i ? g.lineTo(x * k, y * k) : g.moveTo(x * k, y * k)));
      g.closePath();
      g.lineWidth = 3 * dpr;
      g.strokeStyle = 'rgba(0, 0, 0, 0.55)';
      g.stroke();
      g.lineWidth = 1.5 * dpr;
      g.strokeStyle = '#5eb1ff';
      g.setLineDash([6 * dpr, 4 * dpr]);
      g.stroke();
      g.restore();
    }
  }

  /** The canvas point (in template points) under a mouse event. */
  pointAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) / rect.width) * this.size.width,
      y: ((event.clientY - rect.top) / rect.height) * this.size.height,
    };
  }
}

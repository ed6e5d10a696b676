// Export: renders the template with its current parameters on the server (the bytes of
// `flick render`), with the progress streamed over the event stream.

import { postJSON } from './api.js';

export class Exporter {
  constructor(dialog, notify) {
    this.dialog = dialog;
    this.notify = notify;
    this.template = null;
    this.job = null;
    // The last event of each job: an export can end before its POST is answered.
    this.ended = new Map();
    this.$ = (selector) => dialog.querySelector(selector);
    this.$('.exp-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.start();
    });
    this.$('.exp-format').addEventListener('change', () => this.suggest());
  }

  show(template) {
    this.template = template;
    this.suggest();
    this.dialog.showModal();
    this.$('.exp-format').focus();
  }

  suggest() {
    if (!this.template) return;
    const output = this.$('.exp-output');
    const base = this.template.replace(/\.json5?$/i, '');
    const format = this.$('.exp-format').value;
    if (!output.dataset.edited) output.placeholder = `${base}.${format}`;
  }

  async start() {
    const format = this.$('.exp-format').value;
    const output = this.$('.exp-output').value.trim() || undefined;
    this.setProgress(0, 'Starting…');
    this.$('.exp-go').disabled = true;
    try {
      const answer = await postJSON('export', { template: this.template }, { format, output });
      this.job = answer.job;
      this.setProgress(0, `Rendering ${answer.output}…`);
      const ended = this.ended.get(answer.job);
      if (ended) this[ended.kind](ended.data);
    } catch (error) {
      this.$('.exp-go').disabled = false;
      this.setProgress(null, error.message, true);
    }
  }

  setProgress(fraction, text, failed = false) {
    const bar = this.$('.exp-bar');
    bar.hidden = false;
    // A failure leaves the bar still (no value, and no sweep).
    bar.classList.toggle('failed', failed);
    if (fraction == null) bar.removeAttribute('value');
    else bar.value = fraction;
    const status = this.$('.exp-status');
    status.textContent = text;
    status.classList.toggle('error', failed);
    status.classList.remove('warning');
  }

  /** Events of the stream: progress, finishing, done, failed. */
  progress(data) {
    if (data.job !== this.job) return;
    this.setProgress(data.fraction, `Frame ${data.frame} of ${data.frames}`);
  }

  /** After the last frame: a GIF's encoding pass (its frames go to ffmpeg once the palette is
   *  known), then gifsicle. */
  finishing(data) {
    if (data.job !== this.job) return;
    if (data.step === 'encode-gif') {
      this.setProgress(data.of ? data.done / data.of : null, `Encoding the GIF: frame ${data.done} of ${data.of}`);
    } else if (data.step === 'gifsicle') {
      this.setProgress(null, 'Optimising the GIF (gifsicle -O3)…');
    } else {
      this.setProgress(null, 'Finishing…');
    }
  }

  done(data) {
    this.ended.set(data.job, { kind: 'done', data });
    if (data.job !== this.job) return;
    this.job = null;
    this.$('.exp-go').disabled = false;
    const size = data.bytes >= 1e6 ? `${(data.bytes / 1e6).toFixed(1)} MB` : `${Math.round(data.bytes / 1e3)} kB`;
    this.setProgress(1, `Wrote ${data.output} (${size})`);
    // The file is there, but not as a working gifsicle would have written it: said under the
    // size, in the warning colour, and in the notice.
    const warnings = data.warnings || [];
    const status = this.$('.exp-status');
    status.classList.toggle('warning', warnings.length > 0);
    for (const warning of warnings) {
      const line = document.createElement('span');
      line.className = 'exp-warning';
      line.textContent = warning;
      status.append(document.createElement('br'), line);
    }
    this.notify(warnings.length ? `Exported ${data.output}, with a warning` : `Exported ${data.output}`);
  }

  failed(data) {
    this.ended.set(data.job, { kind: 'failed', data });
    if (data.job !== this.job) return;
    this.job = null;
    this.$('.exp-go').disabled = false;
    this.setProgress(null, data.message, true);
  }
}

// The parameters panel: the generated form (params.js), the values sent to the server (one POST
// at a time, the newest values win), the `--set` preview, copy, reset and save as params file.

import { getJSON, postJSON } from './api.js';
import { ParametersForm, setOptions, shellQuote } from './params.js';

const $ = (selector) => document.querySelector(selector);

export class ParametersPanel {
  /** `state` (template, info, values), `notify(message, failed)`, `rerender()` after a change. */
  constructor({ state, notify, rerender }) {
    this.state = state;
    this.notify = notify;
    this.rerender = rerender;
    this.busy = false;
    this.pending = null;
    this.form = new ParametersForm($('#panel-params'), (name, value) => this.change(name, value));
    $('#copy-set').addEventListener('click', () => this.copy());
    $('#reset-params').addEventListener('click', () => this.reset());
    this.bindSave();
  }

  /**
   * Forgets the template that was open: its form, its values, and values not sent yet (they
   * were meant for it; a change being sent still goes to it, and no re-render follows).
   */
  clear() {
    this.pending = null;
    this.sending = null;
    this.filesToken = (this.filesToken ?? 0) + 1;
    this.state.values = {};
    this.form.render([], undefined, 'Loading…');
    this.updatePreview();
  }

  /**
   * Shows a template's parameters with their current values (and the files to pick from). A
   * state compiled before the latest changes reached the server keeps those changes (values
   * being sent or waiting to be sent win over the state's).
   */
  render(parameters, compiled = true) {
    const unsent = { ...(this.sending ?? {}), ...(this.pending ?? {}) };
    const shown = parameters.map((p) => (p.name in unsent ? { ...p, value: unsent[p.name] } : p));
    this.state.values = Object.fromEntries(shown.map((p) => [p.name, p.value ?? p.default]));
    this.form.render(shown, undefined, compiled ? undefined : 'No parameters yet: the template has not compiled.');
    this.updatePreview();
    this.loadFiles(shown);
  }

  /** Lists the template folder's images and fonts when a parameter picks one, then shows them. */
  async loadFiles(parameters) {
    const kinds = [...new Set(parameters.map((p) => p.type).filter((t) => t === 'image' || t === 'font'))];
    if (kinds.length === 0) return;
    const token = (this.filesToken = (this.filesToken ?? 0) + 1);
    const template = this.state.template;
    try {
      // A template reads files of its own folder (and below): list those.
      const folder = (this.state.template ?? '').split('/').slice(0, -1).join('/') || undefined;
      const answers = await Promise.all(kinds.map((kind) => getJSON('files', { kind, folder })));
      if (token !== this.filesToken || template !== this.state.template) return;
      const files = Object.fromEntries(kinds.map((kind, i) => [kind, answers[i].files]));
      this.form.render(parameters.map((p) => ({ ...p, value: this.state.values[p.name] ?? p.value })), files);
      document.body.dataset.pickers = kinds.join(',');
    } catch (error) {
      if (token === this.filesToken) this.notify(error.message, true);
    }
  }

  updatePreview() {
    const options = setOptions(this.state.info?.parameters ?? [], this.state.values);
    const command = ['flick', 'render', shellQuote(this.state.template ?? 'TEMPLATE'), ...options, '-o', 'out.mp4'];
    $('#set-preview').textContent = command.join(' ');
    $('#set-preview').dataset.options = options.join(' ');
  }

  change(name, value) {
    this.state.values = { ...this.state.values, [name]: value };
    this.updatePreview();
    this.pending = { ...(this.pending ?? {}), [name]: value };
    if (!this.busy) this.send();
  }

  /** POSTs the values (validated by the server as --set), then re-renders; a refusal shows under its field. */
  async send() {
    this.busy = true;
    while (this.pending) {
      const changed = this.pending;
      const template = this.state.template;
      this.pending = null;
      this.sending = changed;
      try {
        await postJSON('params', { template }, { values: this.state.values });
        if (template === this.state.template) {
          for (const name of Object.keys(changed)) this.form.showError(name, null);
          this.rerender();
        }
      } catch (error) {
        if (template === this.state.template) {
          for (const name of Object.keys(changed)) this.form.showError(name, error.message);
        }
      }
      this.sending = null;
    }
    this.busy = false;
  }

  async copy() {
    const text = $('#set-preview').dataset.options ?? '';
    try {
      await navigator.clipboard.writeText(text);
      this.notify(text ? 'Copied the --set options' : 'Every parameter has its default: nothing to copy');
    } catch {
      this.notify('The browser refused the clipboard: copy the command from the box', true);
    }
  }

  reset() {
    const defaults = (this.state.info?.parameters ?? []).map((p) => ({ ...p, value: p.default }));
    this.pending = null;
    this.sending = null;
    this.render(defaults);
    this.pending = { ...this.state.values };
    if (!this.busy) this.send();
  }

  bindSave() {
    const dialog = $('#save-dialog');
    const status = dialog.querySelector('.save-status');
    $('#save-params').addEventListener('click', () => {
      const base = (this.state.template ?? 'params').replace(/\.json5?$/i, '');
      $('#save-path').value = `${base}.params.json5`;
      $('#save-overwrite').checked = false;
      status.textContent = '';
      status.classList.remove('error');
      dialog.showModal();
      $('#save-path').select();
    });
    dialog.querySelector('.save-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const path = $('#save-path').value.trim();
      const overwrite = $('#save-overwrite').checked;
      try {
        await postJSON('params/save', { template: this.state.template }, { path, overwrite });
        dialog.close();
        this.notify(`Saved ${path}: use it with --params ${shellQuote(path)}`);
      } catch (error) {
        status.textContent = error.status === 409 ? `${path} exists: tick "Replace" to overwrite it` : error.message;
        status.classList.add('error');
      }
    });
  }
}

// The parameters form, generated from the template's typed parameters: colour pickers, sliders
// within declared ranges, selects for enums, switches for booleans, text for strings and lists,
// and pickers of the opened folder's files for images and fonts (/api/files; a font parameter
// may also keep an installed family). A change calls `onChange(name, value)`; the app POSTs it
// and re-renders.

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}

/** `--set name=value` text of a value, as the CLI reads it (lists as JSON). */
export function setText(value) {
  if (Array.isArray(value) || (value && typeof value === 'object')) return JSON.stringify(value);
  return String(value);
}

/** A word safe for a POSIX shell, single-quoted when needed. */
export function shellQuote(word) {
  return /^[A-Za-z0-9_@%+=:,./#-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The `--set` options that reproduce `values` where they differ from the defaults. */
export function setOptions(parameters, values) {
  return parameters
    .filter((p) => values[p.name] !== undefined && JSON.stringify(values[p.name]) !== JSON.stringify(p.default))
    .map((p) => `--set ${shellQuote(`${p.name}=${setText(values[p.name])}`)}`);
}

const kindOf = (type) => (type === 'colour' ? 'color' : type === 'bool' ? 'boolean' : type);

function hexRGB(color) {
  if (typeof color !== 'string') return '#000000';
  const c = color.trim();
  if (/^#[0-9a-f]{3}$/i.test(c)) return `#${[...c.slice(1)].map((x) => x + x).join('')}`.toLowerCase();
  if (/^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(c)) return c.slice(0, 7).toLowerCase();
  return '#000000';
}

export class ParametersForm {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.signature = '';
    this.fields = new Map();
    this.parameters = [];
    this.values = {};
    /** The opened folder's files by kind (`image`, `font`), relative to it. */
    this.files = {};
  }

  /**
   * Shows the parameters of a template state with `files` ({image: [...], font: [...]}) to
   * pick from; rebuilds only when the declarations, the files or `empty` change. `empty` is
   * said when there are no parameters (default: the template has none).
   */
  render(parameters, files = this.files, empty = 'This template has no parameters.') {
    this.parameters = parameters ?? [];
    this.files = files;
    this.empty = empty;
    const signature = JSON.stringify([
      this.parameters.map((p) => [p.name, p.type, p.min, p.max, p.options, p.default]), files, empty]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.build();
    }
    for (const p of this.parameters) this.setValue(p.name, p.value ?? p.default);
  }

  build() {
    this.fields.clear();
    const list = this.root.querySelector('.param-list');
    if (this.parameters.length === 0) {
      list.replaceChildren(element('p', { className: 'muted', text: this.empty }));
      return;
    }
    list.replaceChildren(...this.parameters.map((p) => this.field(p)));
  }

  field(p) {
    const id = `param-${p.name}`;
    const kind = kindOf(p.type);
    const row = element('div', { className: `param k-${kind}`, 'data-name': p.name });
    const label = element('label', { for: id, className: 'param-name', text: p.name });
    const reset = element('button', {
      type: 'button', className: 'param-reset icon', title: 'Reset to the default',
      'aria-label': `Reset ${p.name} to its default`, text: '↺',
    });
    reset.addEventListener('click', () => this.commit(p.name, p.default));
    const head = element('div', { className: 'param-head' }, label, reset);
    const control = element('div', { className: 'param-control' });
    const message = element('p', { className: 'param-error', role: 'status', 'aria-live': 'polite' });
    const field = { p, kind, row, control, message, set: () => {} };
    const describedBy = p.description ? `${id}-desc` : undefined;
    switch (kind) {
      case 'number':
      case 'integer': {
        const ranged = p.max != null && p.min != null;
        const step = p.step ?? (kind === 'integer' ? 1 : ranged ? (p.max - p.min) / 200 : 'any');
        const box = element('input', {
          id, type: 'number', step, min: p.min, max: p.max, className: 'num', 'aria-describedby': describedBy,
        });
        let slider = null;
        if (p.min != null && p.max != null) {
          slider = element('input', {
            type: 'range', min: p.min, max: p.max, step, 'aria-label': `${p.name} slider`,
          });
          slider.addEventListener('input', () => {
            box.value = slider.value;
            this.commit(p.name, Number(slider.value));
          });
          control.append(slider);
        }
        box.addEventListener('change', () => {
          if (box.value.trim() === '') return;
          if (slider) slider.value = box.value;
          this.commit(p.name, Number(box.value));
        });
        control.append(box);
        field.set = (v) => {
          box.value = v;
          if (slider) slider.value = v;
        };
        break;
      }
      case 'color': {
        const swatch = element('input', { type: 'color', 'aria-label': `${p.name} colour picker` });
        const text = element('input', {
          id, type: 'text', className: 'mono', spellcheck: 'false', 'aria-describedby': describedBy,
        });
        swatch.addEventListener('input', () => {
          const current = String(this.values[p.name] ?? '');
          const alpha = /^#[0-9a-f]{8}$/i.test(current) ? current.slice(7) : '';
          const value = `${swatch.value.toUpperCase()}${alpha}`;
          text.value = value;
          this.commit(p.name, value);
        });
        text.addEventListener('change', () => {
          swatch.value = hexRGB(text.value.trim());
          this.commit(p.name, text.value.trim());
        });
        control.append(swatch, text);
        field.set = (v) => {
          text.value = v ?? '';
          swatch.value = hexRGB(v);
        };
        break;
      }
      case 'boolean': {
        const box = element('input', { id, type: 'checkbox', role: 'switch', 'aria-describedby': describedBy });
        box.addEventListener('change', () => this.commit(p.name, box.checked));
        control.append(box);
        field.set = (v) => {
          box.checked = v === true;
        };
        break;
      }
      case 'enum': {
        const select = element('select', { id, 'aria-describedby': describedBy });
        for (const option of p.options ?? p.choices ?? []) {
          select.append(element('option', { value: option, text: option }));
        }
        select.addEventListener('change', () => this.commit(p.name, select.value));
        control.append(select);
        field.set = (v) => {
          select.value = v;
        };
        break;
      }
      case 'image':
      case 'font': {
        // The files of that kind in the opened folder; the current value and the default stay
        // choosable when they are not among them (a font family, a file outside the list).
        const select = element('select', { id, className: 'mono file-picker', 'aria-describedby': describedBy });
        const fill = (current) => {
          const listed = this.files[kind] ?? [];
          const extra = [...new Set([current, p.default].filter((v) => typeof v === 'string' && v !== ''))]
            .filter((v) => !listed.includes(v));
          select.replaceChildren(
            ...extra.map((v) => element('option', { value: v, text: v })),
            ...listed.map((f) => element('option', { value: f, text: f })),
          );
          if (listed.length === 0 && extra.length === 0) {
            select.append(element('option', { value: '', text: `no ${kind} files in the folder`, disabled: true }));
          }
          select.value = current ?? '';
        };
        select.addEventListener('change', () => this.commit(p.name, select.value));
        control.append(select);
        field.set = (v) => fill(v);
        break;
      }
      default: {
        // string, list and any other type: text (lists as JSON)
        const list = p.options?.length ? `${id}-options` : undefined;
        const text = element('input', {
          id, type: 'text', list, spellcheck: 'false', 'aria-describedby': describedBy,
          className: kind === 'string' ? '' : 'mono',
        });
        if (list) {
          const datalist = element('datalist', { id: list });
          for (const option of p.options) datalist.append(element('option', { value: option }));
          control.append(datalist);
        }
        text.addEventListener('change', () => {
          let value = text.value;
          if (kind === 'list') {
            try {
              value = JSON.parse(text.value);
            } catch {
              value = text.value;
            }
          }
          this.commit(p.name, value);
        });
        control.append(text);
        field.set = (v) => {
          text.value = kind === 'list' ? JSON.stringify(v ?? []) : v ?? '';
        };
      }
    }
    row.append(head, control);
    if (p.description) row.append(element('p', { id: describedBy, className: 'param-desc', text: p.description }));
    row.append(message);
    this.fields.set(p.name, field);
    return row;
  }

  setValue(name, value) {
    this.values[name] = value;
    const field = this.fields.get(name);
    if (!field) return;
    if (!field.row.contains(document.activeElement) || document.activeElement.type !== 'text') field.set(value);
    field.row.classList.toggle('changed', JSON.stringify(value) !== JSON.stringify(field.p.default));
  }

  commit(name, value) {
    this.setValue(name, value);
    this.showError(name, null);
    this.onChange(name, value);
  }

  /** Shows (or clears, with null) a refusal under a field. */
  showError(name, message) {
    const field = this.fields.get(name);
    if (!field) return;
    field.message.textContent = message ?? '';
    field.row.classList.toggle('invalid', !!message);
  }
}

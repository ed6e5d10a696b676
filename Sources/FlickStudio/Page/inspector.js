// The inspector: the selected layer's properties at the current time (/api/layer), a property
// chosen there (or in the timeline) is plotted by TracePlot; and the layer tree in the sidebar.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A value as text: numbers to 4 significant digits, arrays as tuples. */
export function formatValue(value) {
  if (Array.isArray(value) && value.length === 1) return formatValue(value[0]);
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return String(value);
    return String(+value.toPrecision(4));
  }
  if (Array.isArray(value)) return `(${value.map(formatValue).join(', ')})`;
  if (value && typeof value === 'object') return JSON.stringify(value);
  if (value === null || value === undefined) return '—';
  return String(value);
}

/** Short unit names for the table (the full name is in the cell's tooltip). */
const units = { points: 'pt', radians: 'rad', degrees: '°', seconds: 's', factor: '×', unitCoordinates: 'unit' };
function unitLabel(unit) {
  if (!unit || unit === 'fraction' || unit === 'order') return '';
  return units[unit] ?? unit;
}

/** A CSS colour for a colour property's value (`#RRGGBB[AA]`, or RGBA components in 0…1), else null. */
function cssColor(name, v) {
  if (typeof v === 'string' && /^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(v)) return v;
  if (/color$/i.test(name) && Array.isArray(v) && v.length === 4 && v.every((x) => x >= 0 && x <= 1)) {
    const [r, g, b, a] = v.map((x) => Math.round(x * 255));
    return `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
  }
  return null;
}

export class Inspector {
  /** `onProperty(name)` is called when a property row is chosen. */
  constructor(root, onProperty) {
    this.root = root;
    this.onProperty = onProperty;
    this.table = root.querySelector('.props');
    this.title = root.querySelector('.insp-layer');
    this.kind = root.querySelector('.insp-kind');
    this.property = null;
  }

  clear() {
    this.title.textContent = 'No layer selected';
    this.kind.textContent = 'Click the canvas or a layer in the list';
    this.table.replaceChildren();
  }

  /** Shows a /api/layer answer; `info` is the layer's entry of the template state. */
  show(answer, info) {
    this.title.textContent = answer.layer;
    this.kind.textContent = [info?.kind, info?.name].filter(Boolean).join(' · ') || 'layer';
    // Animated properties first, then the rest, each in the server's order.
    const properties = [...(answer.properties ?? [])].sort((a, b) => Number(b.animated) - Number(a.animated));
    const rows = properties.map((prop) => {
      const row = element('tr', prop.animated ? 'animated' : '');
      row.dataset.property = prop.name;
      const nameCell = element('th');
      nameCell.scope = 'row';
      const button = element('button', 'prop-name', prop.name);
      button.type = 'button';
      button.setAttribute('aria-label', `Plot ${prop.name}`);
      button.setAttribute('aria-pressed', String(prop.name === this.property));
      button.addEventListener('click', () => this.onProperty(prop.name));
      if (prop.animated) button.append(element('span', 'dot'));
      nameCell.append(button);
      const unit = unitLabel(prop.unit);
      if (unit) nameCell.append(element('span', 'unit', unit));
      const valueCell = element('td', 'prop-value mono');
      const color = cssColor(prop.name, prop.value);
      if (color) {
        const swatch = element('span', 'swatch');
        swatch.style.background = color;
        valueCell.append(swatch);
      }
      valueCell.append(document.createTextNode(formatValue(prop.value)));
      valueCell.title = `${formatValue(prop.value)}${prop.unit ? ` ${prop.unit}` : ''}`;
      const velocity = prop.velocity === undefined ? '' : formatValue(prop.velocity);
      const velocityCell = element('td', 'prop-vel mono', velocity);
      if (prop.velocity !== undefined) velocityCell.title = `velocity (${prop.unit ? `${prop.unit}/s` : 'per second'})`;
      row.append(nameCell, valueCell, velocityCell);
      row.classList.toggle('selected', prop.name === this.property);
      return row;
    });
    this.table.replaceChildren(...rows);
  }

  /** Marks the plotted property. */
  selectProperty(name) {
    this.property = name;
    for (const row of this.table.querySelectorAll('tr')) {
      const on = row.dataset.property === name;
      row.classList.toggle('selected', on);
      row.querySelector('button')?.setAttribute('aria-pressed', String(on));
    }
  }
}

/** The layer tree of the sidebar: one button per layer, indented by depth. */
export function renderLayerTree(list, layers, selected, onSelect) {
  const byParent = new Map();
  for (const layer of layers ?? []) {
    const key = layer.parent ?? null;
    if (!byParent.has(key)) byParent.set(key, []);
    byParent.get(key).push(layer);
  }
  const items = [];
  const walk = (parent, depth) => {
    for (const layer of byParent.get(parent) ?? []) {
      const item = element('li');
      const button = element('button', 'layer-item');
      button.type = 'button';
      button.dataset.layer = layer.id;
      button.style.setProperty('--depth', depth);
      button.append(element('span', `layer-kind k-${layer.kind}`, ''), element('span', 'layer-id', layer.id));
      button.setAttribute('aria-pressed', String(layer.id === selected));
      button.setAttribute('aria-label', `Select layer ${layer.id} (${layer.kind})`);
      button.addEventListener('click', () => onSelect(layer.id));
      item.append(button);
      items.push(item);
      walk(layer.id, depth + 1);
    }
  };
  walk(null, 0);
  list.replaceChildren(...items);
}

// Flick Studio: the page. Wires the template list, the viewer, playback, hot reload, the
// timeline, the inspector, the parameters, compare and export to the HTTP API (docs/studio.md).

import { getJSON, onSessionLost, subscribe } from './api.js';
import { Freshness } from './fresh.js';
import { FrameLoader } from './frames.js';
import { Viewer } from './viewer.js';
import { Playback } from './playback.js';
import { Timeline } from './timeline.js';
import { Inspector, renderLayerTree } from './inspector.js';
import { TracePlot } from './plot.js';
import { ParametersPanel } from './params-panel.js';
import { Compare } from './compare.js';
import { Exporter } from './export.js';
import { ErrorOverlay } from './overlay.js';
import { bindControls, showTab } from './controls.js';

const $ = (selector) => document.querySelector(selector);

/** Everything the page shows; also `window.studio.state` for tests and debugging. */
const state = {
  folder: '',
  templates: [],
  template: null,
  info: null,
  frame: 0,
  selected: null,
  property: null,
  trace: null,
  values: {},
  lastFrameURL: null,
  lastBlobURL: null,
  lastBlob: null,
  errors: [],
};

const toastBox = $('#toast');
let toastTimer = 0;
function notify(message, failed = false) {
  toastBox.textContent = message;
  toastBox.classList.toggle('error', failed);
  toastBox.classList.add('on');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => toastBox.classList.remove('on'), failed ? 6000 : 2600);
}

function setStatus(text) {
  $('#status').textContent = text;
}

// ---------------------------------------------------------------------------------------------
// Viewer and frames

const viewer = new Viewer($('#viewer'), $('#stage'));
const overlay = new ErrorOverlay($('#error-overlay'));
/** Which answers may still apply (fresh.js): nothing older than what the page shows. */
const fresh = new Freshness();

const loader = new FrameLoader(
  ({ bitmap, blob, url, request, revision, renderMs }) => {
    // Asked for another template, or for this one before another was opened in between.
    if (request.opened !== fresh.opened) {
      bitmap.close();
      return;
    }
    // Drawn from an older compile than the page already knows (a reload crossed the request):
    // ask again rather than show it. In an error the server draws the last good compile under
    // the current revision, so this holds there too.
    if (revision != null && revision < fresh.known) {
      bitmap.close();
      requestFrame();
      return;
    }
    viewer.show(bitmap);
    if (state.lastBlobURL) URL.revokeObjectURL(state.lastBlobURL);
    state.lastBlobURL = URL.createObjectURL(blob);
    state.lastBlob = blob;
    state.lastFrameURL = url;
    const body = document.body.dataset;
    body.frameUrl = url;
    body.blobUrl = state.lastBlobURL;
    body.shownFrame = String(request.frame);
    body.shownRevision = String(state.info?.revision ?? '');
    playback.frameShown();
    $('#render-ms').textContent = renderMs == null ? '' : `${renderMs.toFixed(0)} ms`;
  },
  (error, request, newest) => {
    if (request.opened !== fresh.opened || !newest) return;
    state.errors.push(String(error.message ?? error));
    // A failed frame of a template that does not compile is expected: the overlay says why.
    if (state.info?.ok !== false) setStatus(`Frame ${request.frame}: ${error.message}`);
  },
);

function requestFrame() {
  if (!state.template) return;
  loader.load({ template: state.template, frame: state.frame, opened: fresh.opened });
}

const canvasInfo = () => state.info?.canvas ?? { width: 960, height: 540, fps: 30, duration: 1, frameCount: 1 };
const timeOf = (frame) => frame / (canvasInfo().fps || 30);

/** Shows frame `n` (clamped): scrubber, readouts, timeline, plot, inspector and the image. */
function seekFrame(n) {
  const count = Math.max(1, canvasInfo().frameCount || 1);
  const frame = Math.min(Math.max(Math.round(Number(n) || 0), 0), count - 1);
  state.frame = frame;
  const t = timeOf(frame);
  $('#scrubber').value = String(frame);
  $('#time').textContent = `${t.toFixed(3)} s`;
  $('#frame').textContent = `${frame} / ${count - 1}`;
  timeline.setTime(t);
  plot.setTime(t);
  requestFrame();
  refreshLayer();
}

/** The frame nearest `p` % of the duration; 100 % is the last frame (as `flick still --at`). */
function frameAtPercent(p) {
  const c = canvasInfo();
  return Math.min(c.frameCount - 1, Math.round((p / 100) * c.duration * c.fps));
}

function seekTime(t) {
  playback.pause();
  seekFrame(Math.round(t * (canvasInfo().fps || 30)));
}

const playback = new Playback(
  (frame) => seekFrame(frame),
  (playing) => {
    const button = $('#play');
    button.textContent = playing ? '❚❚' : '▶';
    button.setAttribute('aria-label', playing ? 'Pause (Space)' : 'Play (Space)');
    button.classList.toggle('on', playing);
    document.body.classList.toggle('playing', playing);
    loader.setLanes(playing ? 2 : 1);
    if (!playing) updateFPS();
  },
);

function updateFPS() {
  const fps = canvasInfo().fps || 30;
  const achieved = playback.achieved;
  const out = $('#fps');
  if (!state.info?.canvas) {
    out.textContent = '— fps';
    out.classList.remove('low');
    return;
  }
  out.textContent = achieved == null ? `${fps} fps` : `${achieved.toFixed(1)} / ${fps} fps`;
  out.classList.toggle('low', achieved != null && achieved < fps * playback.speed * 0.9);
  if (playback.speed !== 1 || playback.direction < 0) {
    out.textContent += ` · ${playback.direction < 0 ? '−' : ''}${playback.speed}×`;
  }
}
setInterval(() => {
  if (playback.playing) updateFPS();
}, 250);

// ---------------------------------------------------------------------------------------------
// Timeline, inspector, plot

const timeline = new Timeline($('#timeline'), (t) => seekTime(t), (layer, property) => {
  selectLayer(layer, { property });
});
const plot = new TracePlot($('#plot'));
const inspector = new Inspector($('#panel-inspector'), (property) => selectProperty(property));

let layerBusy = false;
let layerAgain = false;
/** Refreshes the selected layer's properties at the current time (one request at a time). */
async function refreshLayer() {
  if (!state.selected || !state.template) return;
  if (layerBusy) {
    layerAgain = true;
    return;
  }
  layerBusy = true;
  const ticket = fresh.ticket('layer');
  try {
    const layer = state.selected;
    const frame = state.frame;
    const answer = await getJSON('layer', { template: state.template, layer, t: timeOf(frame) });
    // A state applied meanwhile asks again (layerAgain): this answer is of the one before.
    if (ticket.current() && layer === state.selected) {
      const info = state.info?.layers?.find((l) => l.id === layer);
      inspector.show(answer, info);
      // The layer's own outline when the server gives one; else the hit's, at the time it was hit.
      const outline = outlineOf(answer);
      if (outline) viewer.setOutline(outline);
      else if (state.outlineFrame !== frame) viewer.setOutline(null);
    }
  } catch (error) {
    if (ticket.current()) {
      inspector.clear();
      setStatus(error.message);
    }
  } finally {
    layerBusy = false;
    if (layerAgain) {
      layerAgain = false;
      refreshLayer();
    }
  }
}

/** The selected layer's outline in canvas points, from `quad` or `bounds`/`frame` of an answer. */
function outlineOf(answer) {
  if (Array.isArray(answer?.quad) && answer.quad.length >= 3) return answer.quad;
  const box = answer?.bounds ?? answer?.frame;
  if (box && ['x', 'y', 'width', 'height'].every((k) => typeof box[k] === 'number')) {
    const { x, y, width: w, height: h } = box;
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  }
  return null;
}

function markLayerTree() {
  for (const button of document.querySelectorAll('#layers .layer-item')) {
    button.setAttribute('aria-pressed', String(button.dataset.layer === state.selected));
  }
}

/** Selects a layer (null clears): inspector, outline, timeline rows; optionally a property. */
function selectLayer(layer, { property, quad } = {}) {
  const changed = layer !== state.selected;
  state.selected = layer;
  document.body.dataset.selectedLayer = layer ?? '';
  markLayerTree();
  if (!layer) {
    inspector.clear();
    viewer.setOutline(null);
    timeline.select(null);
    selectProperty(null);
    return;
  }
  state.outlineFrame = quad ? state.frame : null;
  if (quad) viewer.setOutline(quad);
  else if (changed) viewer.setOutline(null);
  showTab('inspector');
  refreshLayer();
  const animated = (state.info?.tracks ?? []).filter((t) => t.layer === layer).map((t) => t.property);
  const next = property ?? (changed ? animated[0] ?? null : state.property);
  selectProperty(next);
}

/** Plots a property of the selected layer over the whole clip (/api/trace). */
async function selectProperty(property) {
  state.property = property;
  inspector.selectProperty(property);
  timeline.select(state.selected, property);
  const ticket = fresh.ticket('trace');
  if (!property || !state.selected) {
    state.trace = null;
    plot.set(null);
    $('#plot-title').textContent = 'Trace';
    $('#plot-note').textContent = '';
    return;
  }
  $('#plot-title').textContent = `${state.selected} · ${property}`;
  try {
    const trace = await getJSON('trace', { template: state.template, layer: state.selected, property });
    if (!ticket.current()) return;
    const track = (state.info?.tracks ?? []).find((t) => t.layer === state.selected && t.property === property);
    state.trace = trace;
    plot.set(trace, track, canvasInfo().duration);
    plot.setTime(timeOf(state.frame));
    const jumps = plot.jumps.length;
    document.body.dataset.velocityJumps = plot.jumps.map((j) => j.time).join(',');
    const jumpNote = jumps ? ` · ${jumps} velocity jump${jumps > 1 ? 's' : ''}` : '';
    $('#plot-note').textContent = `${trace.samples.length} samples${jumpNote}`;
    document.body.dataset.traceProperty = `${state.selected}.${property}`;
  } catch (error) {
    if (!ticket.current()) return;
    state.trace = null;
    plot.set(null);
    $('#plot-note').textContent = error.message;
  }
}

$('#viewer').addEventListener('click', async (event) => {
  if (!state.template) return;
  const { x, y } = viewer.pointAt(event);
  // A state applied while the hit was tested (a reload) tests it again, on that state; a newer
  // click or another template drops it.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const ticket = fresh.ticket('hit');
    try {
      const hit = await getJSON('hit', { template: state.template, t: timeOf(state.frame), x, y });
      if (ticket.current()) return selectLayer(hit.layer ?? null, { quad: outlineOf(hit) });
    } catch (error) {
      if (ticket.current()) return setStatus(error.message);
    }
    if (ticket.replaced()) return;
  }
});

// ---------------------------------------------------------------------------------------------
// Parameters

const params = new ParametersPanel({
  state,
  notify,
  rerender: () => {
    requestFrame();
    refreshLayer();
    if (state.property) selectProperty(state.property);
  },
});

// ---------------------------------------------------------------------------------------------
// Templates, reloads and errors

function renderTemplateList() {
  const list = $('#templates');
  list.replaceChildren(
    ...state.templates.map((t) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'template-item';
      button.dataset.name = t.name;
      const title = document.createElement('span');
      title.className = 'title';
      title.textContent = t.title || t.name;
      const file = document.createElement('span');
      file.className = 'file';
      file.textContent = t.name;
      button.append(title, file);
      button.setAttribute('aria-current', String(t.name === state.template));
      button.addEventListener('click', () => openTemplate(t.name));
      item.append(button);
      return item;
    }),
  );
}

/** True when the template has compiled at least once (the state holds its last good compile). */
const hasCompiled = (info) => Boolean(info?.canvas);

/** Shows the revision badge (empty: none). */
function showRevision(revision) {
  document.body.dataset.revision = String(revision ?? '');
  $('#revision').textContent = revision != null ? `rev ${revision}` : '';
}

/** Applies a compiled state (/api/template) to every panel; keeps the current frame. */
function applyState(info) {
  state.info = info;
  fresh.applied();
  const c = canvasInfo();
  showRevision(info.revision);
  const compiled = hasCompiled(info);
  $('#stage').classList.toggle('uncompiled', !compiled);
  if (compiled) {
    viewer.setSize(c.width, c.height);
    playback.configure(c.fps, c.frameCount);
    $('#scrubber').max = String(Math.max(0, c.frameCount - 1));
    timeline.render(info);
  } else {
    timeline.clear('No tracks yet: the template has not compiled.');
  }
  renderLayerTree($('#layers'), info.layers ?? [], state.selected, (id) => selectLayer(id));
  params.render(info.parameters ?? [], compiled);
  if (info.ok === false && info.error) overlay.show(info.error, { lastGood: compiled });
  else overlay.hide();
  updateFPS();
}

/**
 * Empties every view of the template that was open (frame, timeline, readouts, layers,
 * inspector, plot, parameters, error), so nothing of it shows under another template's name
 * while that one's state is on its way, or when it has never compiled.
 */
function clearTemplateViews() {
  state.info = null;
  state.trace = null;
  state.frame = 0;
  selectLayer(null);
  viewer.clear();
  delete document.body.dataset.shownFrame;
  delete document.body.dataset.shownRevision;
  delete document.body.dataset.frameUrl;
  delete document.body.dataset.blobUrl;
  if (state.lastBlobURL) URL.revokeObjectURL(state.lastBlobURL);
  state.lastBlobURL = null;
  state.lastBlob = null;
  state.lastFrameURL = null;
  $('#stage').classList.remove('uncompiled');
  $('#render-ms').textContent = '';
  $('#scrubber').max = '0';
  $('#scrubber').value = '0';
  $('#time').textContent = '0.000 s';
  $('#frame').textContent = '0 / 0';
  showRevision(null);
  timeline.clear('Loading…');
  $('#layers').replaceChildren();
  params.clear();
  overlay.hide();
  setStatus('');
  updateFPS();
}

async function openTemplate(name, { keepTime = false } = {}) {
  const switching = name !== state.template;
  if (switching) {
    playback.pause();
    state.template = name;
    fresh.open(name);
    clearTemplateViews();
  }
  document.body.dataset.template = name;
  $('#template-name').textContent = name;
  document.title = `${name} — Flick Studio`;
  history.replaceState(null, '', `${location.pathname}${location.search}#${encodeURIComponent(name)}`);
  renderTemplateList();
  // Only the newest state asked for applies, and never one older than a revision an event
  // announced: a `reload`'s state that arrives after the next save's `error` is dropped.
  const ticket = fresh.ticket('template', { anyState: true });
  try {
    const info = await getJSON('template', { template: name });
    if (!ticket.current() || !fresh.hear(info.revision)) return;
    applyState(info);
    seekFrame(keepTime || !switching ? state.frame : 0);
    if (state.selected && state.property) selectProperty(state.property);
    setStatus('');
  } catch (error) {
    if (!ticket.current()) return;
    setStatus(error.message);
    notify(error.message, true);
  }
}

function onReload(data) {
  if (data.template !== state.template || !fresh.hear(data.revision)) return;
  overlay.hide();
  openTemplate(state.template, { keepTime: true });
}

/** The template does not compile now: the diagnostic at once, then its whole state (the last good compile). */
function onError(data) {
  if (data.template !== state.template || !fresh.hear(data.revision)) return;
  showRevision(data.revision);
  if (state.info) state.info = { ...state.info, ok: false, error: data.error, revision: data.revision };
  overlay.show(data.error, { lastGood: hasCompiled(state.info) });
  openTemplate(state.template, { keepTime: true });
}

const connection = $('#connection');
function setConnected(on) {
  if (document.body.dataset.session === 'lost') return;
  connection.classList.toggle('on', on);
  connection.querySelector('.label').textContent = on ? 'Live' : 'Offline';
  connection.title = on ? 'Live reload: connected' : 'Live reload: the studio does not answer; trying again';
  document.body.dataset.events = on ? 'open' : 'closed';
}

/**
 * The studio refused the session token (401/403): it was restarted, with a new token the page
 * cannot know. Says so, and how to go on; playback and requests stop.
 */
function sessionLost() {
  if (document.body.dataset.session === 'lost') return;
  document.body.dataset.session = 'lost';
  document.body.dataset.events = 'closed';
  playback.pause();
  connection.classList.remove('on');
  connection.classList.add('lost');
  connection.querySelector('.label').textContent = 'Restarted';
  connection.title = 'This session ended: open the new address the studio printed';
  $('#session-lost-url').textContent = `${location.origin}/?token=…`;
  $('#session-lost').hidden = false;
}

// ---------------------------------------------------------------------------------------------
// Dialogs, tabs, zoom, transport, keyboard

const compare = new Compare($('#compare'), notify);
const exporter = new Exporter($('#export'), notify);
$('#open-compare').addEventListener('click', () => compare.show());
$('#open-export').addEventListener('click', () => state.template && exporter.show(state.template));
$('#open-help').addEventListener('click', () => $('#help').showModal());

bindControls({
  viewer,
  playback,
  frame: () => state.frame,
  seek: seekFrame,
  lastFrame: () => canvasInfo().frameCount - 1,
  deselect: () => selectLayer(null),
  help: () => $('#help').showModal(),
});

// ---------------------------------------------------------------------------------------------
// Start

window.studio = {
  state,
  loader,
  playback,
  viewer,
  exporter,
  seekFrame: (n) => {
    playback.pause();
    seekFrame(n);
  },
  seekPercent: (p) => {
    playback.pause();
    seekFrame(frameAtPercent(p));
  },
  frameAtPercent,
  selectLayer,
  selectProperty,
  openTemplate,
  openCompare: (path, kind) => {
    compare.show();
    return compare.open(path, kind);
  },
  /** Resolves once no frame is in flight or pending. */
  settled: () => loader.whenIdle(),
};

onSessionLost(sessionLost);
subscribe(
  {
    reload: onReload,
    error: onError,
    templates: () => loadTemplates(),
    progress: (d) => exporter.progress(d),
    finishing: (d) => exporter.finishing(d),
    done: (d) => exporter.done(d),
    failed: (d) => exporter.failed(d),
  },
  setConnected,
);

/** Counts the template lists asked for: only the newest answer applies. */
let listTicket = 0;
/**
 * Fetches the template list (at start, and on every `templates` event: a template added,
 * removed or renamed) and shows it; opens the one the address names, or the first, when none is
 * open yet.
 */
async function loadTemplates() {
  const ticket = ++listTicket;
  try {
    const answer = await getJSON('templates');
    if (ticket !== listTicket) return;
    state.folder = answer.folder ?? '';
    state.templates = answer.templates ?? [];
    $('#folder').textContent = state.folder;
    renderTemplateList();
    document.body.dataset.templates = String(state.templates.length);
    if (state.template) return;
    const wanted = decodeURIComponent(location.hash.slice(1));
    const first = state.templates.find((t) => t.name === wanted) ?? state.templates[0];
    if (first) await openTemplate(first.name);
    else setStatus('No templates in this folder');
  } catch (error) {
    if (ticket !== listTicket) return;
    setStatus(error.message);
    notify(error.message, true);
  }
}

async function start() {
  await loadTemplates();
  document.body.dataset.ready = 'true';
}
start();

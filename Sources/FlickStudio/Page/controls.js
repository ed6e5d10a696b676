// The controls around the preview: the tabs of the right panel (ARIA tab pattern), zoom, the
// transport (play, step, first/last, loop, scrubber) and the keyboard shortcuts (keys.js).

import { bindKeys } from './keys.js';

const $ = (selector) => document.querySelector(selector);

/** Shows the panel of tab `name` (inspector or params). */
export function showTab(name) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.id === `tab-${name}`;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`#${tab.getAttribute('aria-controls')}`).hidden = !on;
  }
}

/**
 * Wires the controls: `viewer` (zoom), `playback`, `frame()` the current frame, `seek(frame)`,
 * `lastFrame()`, `deselect()`, `help()`.
 */
export function bindControls({ viewer, playback, frame, seek, lastFrame, deselect, help }) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener('click', () => showTab(tab.id.replace('tab-', '')));
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      event.stopPropagation();
      const next = tab.id === 'tab-inspector' ? 'params' : 'inspector';
      showTab(next);
      $(`#tab-${next}`).focus();
    });
  }

  const setZoom = (zoom) => {
    viewer.setZoom(zoom);
    for (const b of document.querySelectorAll('[data-zoom]')) {
      b.setAttribute('aria-pressed', String(String(zoom) === b.dataset.zoom));
    }
  };
  for (const b of document.querySelectorAll('[data-zoom]')) {
    b.addEventListener('click', () => setZoom(b.dataset.zoom === 'fit' ? 'fit' : Number(b.dataset.zoom)));
  }

  const go = (n) => {
    playback.pause();
    seek(n);
  };
  const step = (delta) => go(frame() + delta);
  $('#play').addEventListener('click', () => playback.toggle(frame()));
  $('#step-back').addEventListener('click', () => step(-1));
  $('#step-forward').addEventListener('click', () => step(1));
  $('#to-start').addEventListener('click', () => go(0));
  $('#to-end').addEventListener('click', () => go(lastFrame()));
  $('#loop').addEventListener('click', (event) => {
    playback.loop = !playback.loop;
    event.currentTarget.setAttribute('aria-pressed', String(playback.loop));
  });
  $('#scrubber').addEventListener('input', (event) => go(Number(event.target.value)));

  bindKeys({
    toggle: () => playback.toggle(frame()),
    shuttle: (direction) => playback.shuttle(frame(), direction),
    stop: () => playback.pause(),
    step,
    first: () => go(0),
    last: () => go(lastFrame()),
    zoom: setZoom,
    deselect,
    help,
  });
}

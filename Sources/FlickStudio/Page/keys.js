// Keyboard shortcuts as in video tools: Space, J/K/L, ←/→ (Shift: ten frames), Home/End, zoom
// 0/1/2, Esc, ?. They stay out of the way while typing in a field or when a dialog is open, and
// Space keeps its usual meaning on the buttons and boxes of the side panels and the top bar.

const typing = (el) =>
  el instanceof HTMLTextAreaElement ||
  el instanceof HTMLSelectElement ||
  (el instanceof HTMLInputElement && !['range', 'checkbox', 'radio', 'button', 'color'].includes(el.type));

export function bindKeys(actions) {
  window.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || document.querySelector('dialog[open]')) return;
    const onSlider = event.target instanceof HTMLInputElement && event.target.type === 'range' &&
      event.target.id !== 'scrubber';
    const key = event.key;
    // In the side panels and the top bar, Space presses the focused button or ticks the box.
    const inPanel = event.target.closest?.('.side, .sidebar, .topbar');
    if (key === ' ' && inPanel && event.target.matches('button, input')) return;
    let handled = true;
    if (key === ' ') actions.toggle();
    else if (key === 'k' || key === 'K') actions.stop();
    else if (key === 'l' || key === 'L') actions.shuttle(1);
    else if (key === 'j' || key === 'J') actions.shuttle(-1);
    else if ((key === 'ArrowLeft' || key === 'ArrowRight') && !onSlider) {
      actions.step((key === 'ArrowLeft' ? -1 : 1) * (event.shiftKey ? 10 : 1));
    } else if (key === 'Home' && !onSlider) actions.first();
    else if (key === 'End' && !onSlider) actions.last();
    else if (key === '0') actions.zoom('fit');
    else if (key === '1') actions.zoom(1);
    else if (key === '2') actions.zoom(2);
    else if (key === 'Escape') actions.deselect();
    else if (key === '?') actions.help();
    else handled = false;
    if (handled) event.preventDefault();
  });
}

// The error overlay: the diagnostic of a template that does not compile (FILE:LINE:COL, the JSON
// path, the message and the source line with a caret), over the last good frame; a template that
// has never compiled has none, and the overlay says so.

export class ErrorOverlay {
  constructor(root) {
    this.root = root;
  }

  /**
   * Shows a Diagnostic (`file`, `line`, `column`, `path`, `message`, `sourceLine`, `caret`,
   * `text`); `lastGood`: an earlier compile of the template is still drawn.
   */
  show(d, { lastGood = true } = {}) {
    const $ = (s) => this.root.querySelector(s);
    // A line or column of 0 (or none) is left out: a template that is gone, a file that cannot
    // be read, has no place in it.
    const line = Number(d.line) > 0 ? [d.line] : [];
    const column = line.length && Number(d.column) > 0 ? [d.column] : [];
    const location = [d.file ?? '', ...line, ...column].join(':');
    $('.err-location').textContent = location;
    const path = $('.err-path');
    path.hidden = !d.path;
    path.querySelector('code').textContent = d.path ?? '';
    $('.err-message').textContent = d.message ?? d.text ?? '';
    const source = $('.err-source');
    source.hidden = !d.sourceLine;
    $('.err-line').textContent = d.sourceLine ?? '';
    const caret = Math.max(1, Number(d.caret ?? d.column ?? 1));
    // The column counts code points (Unicode scalars), as the template parser does: the line is
    // split into code points before the caret's lead is cut. Tabs keep their width so the caret
    // lines up under the column.
    const lead = [...(d.sourceLine ?? '')].slice(0, caret - 1).map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
    $('.err-caret').textContent = `${lead}^`;
    $('.err-text').textContent = d.text ?? '';
    $('.err-note').textContent = lastGood
      ? 'The last good frame stays on screen until the template compiles.'
      : 'This template has not compiled yet: its preview appears when it does.';
    this.root.hidden = false;
    document.body.dataset.error = location;
  }

  hide() {
    this.root.hidden = true;
    delete document.body.dataset.error;
  }
}

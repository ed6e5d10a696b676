// Which asynchronous answers may still apply (docs/studio.md, "Answers out of order"). Every
// answer the page applies — a template's state, a frame, a trace, a layer's properties, a hit,
// the parameters' files, the template list — is dropped when it is older than what the page
// already shows: only the newest request of each kind applies, an answer asked for another
// template or under an earlier compiled state is dropped (its asker asks again for the state on
// screen), and a state older than a revision the page has heard of (a `reload` or `error` event)
// never replaces it.

export class Freshness {
  constructor() {
    /** The open template. */
    this.template = null;
    /** The newest revision heard of for the open template (answers and events); -1: none yet. */
    this.known = -1;
    /** Counts the templates opened (a frame asked before another was opened is dropped). */
    this.opened = 0;
    /** Counts the compiled states applied and the templates opened. */
    this.view = 0;
    this.issued = new Map();
  }

  /** Another template is opened: nothing asked before applies. */
  open(template) {
    this.template = template;
    this.known = -1;
    this.opened += 1;
    this.view += 1;
  }

  /**
   * A revision of the open template, heard from an event or an answer: false when the page
   * already knows a newer one (the answer is stale), else it becomes the newest known.
   */
  hear(revision) {
    if (revision == null) return true;
    if (revision < this.known) return false;
    this.known = revision;
    return true;
  }

  /** A compiled state was applied: answers asked for under the previous one are stale. */
  applied() {
    this.view += 1;
  }

  /**
   * A ticket for one request of `kind`. `current()` is true while it is the newest request of
   * its kind, for the template open when it was asked and, unless `anyState`, under the same
   * compiled state; `replaced()` is true once a newer request of its kind was made or another
   * template opened (a request only overtaken by a new compiled state may be asked again).
   */
  ticket(kind, { anyState = false } = {}) {
    const number = (this.issued.get(kind) ?? 0) + 1;
    this.issued.set(kind, number);
    const { opened, view } = this;
    const replaced = () => this.issued.get(kind) !== number || this.opened !== opened;
    return { replaced, current: () => !replaced() && (anyState || this.view === view) };
  }
}

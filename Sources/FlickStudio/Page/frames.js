// Frame loading for the viewer: one request in flight while scrubbing (two during playback, one
// per render worker of the server) and one pending (the newest wish replaces an older pending
// one), so scrubbing never queues work; 204 answers (superseded) are ignored; a frame older than
// the one on screen is dropped; each PNG is decoded off the main thread with createImageBitmap.

import { apiURL, noteRefusal } from './api.js';

const clientID = Math.random().toString(36).slice(2, 10);

/**
 * Loads frames and hands each decoded one to `onFrame({bitmap, blob, url, request, renderMs})`.
 * `onError(error, request, newest)` receives failures (the last good frame stays on screen);
 * `newest` is false when a newer frame was asked for since.
 */
export class FrameLoader {
  constructor(onFrame, onError) {
    this.onFrame = onFrame;
    this.onError = onError;
    this.seq = 0;
    /** Requests running now; `lanes` bounds them (1 while scrubbing, 2 while playing). */
    this.inFlight = 0;
    this.lanes = 1;
    this.pending = null;
    this.shownSeq = 0;
    this.requested = 0;
    this.answered = 0;
    this.cancelled = 0;
    this.idleWaiters = [];
  }

  /** Asks for a frame: `request` = {template, frame, scale?}; returns at once. */
  load(request) {
    this.pending = request;
    if (this.inFlight < this.lanes) this.pump();
  }

  /** Playback keeps two requests running, so both of the server's workers draw. */
  setLanes(lanes) {
    this.lanes = Math.max(1, lanes);
    if (this.pending && this.inFlight < this.lanes) this.pump();
  }

  /** True when request `seq` is the last asked for and nothing newer waits. */
  isNewest(seq) {
    return seq === this.seq && !this.pending;
  }

  /** True when nothing is in flight or pending. */
  get idle() {
    return this.inFlight === 0 && !this.pending;
  }

  /** Resolves when the loader has nothing left to do. */
  whenIdle() {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async pump() {
    this.inFlight += 1;
    while (this.pending) {
      const request = this.pending;
      this.pending = null;
      const seq = ++this.seq;
      const url = apiURL('frame.png', {
        template: request.template,
        frame: request.frame,
        scale: request.scale,
        client: clientID,
        seq,
      });
      this.requested += 1;
      try {
        const response = await fetch(url, { credentials: 'omit' });
        if (response.status === 204) {
          this.cancelled += 1;
          continue;
        }
        if (!response.ok) {
          noteRefusal(response.status);
          let message = `${response.status} ${response.statusText}`;
          try {
            const body = await response.json();
            message = body.error?.message ?? message;
          } catch {
            // keep the status line
          }
          this.onError(new Error(message), request, this.isNewest(seq));
          continue;
        }
        const header = response.headers.get('X-Flick-Render-Ms');
        const renderMs = header === null ? NaN : Number(header);
        const revisionHeader = response.headers.get('X-Flick-Revision');
        const revision = revisionHeader === null ? null : Number(revisionHeader);
        const blob = await response.blob();
        const bitmap = await createImageBitmap(blob);
        this.answered += 1;
        if (seq > this.shownSeq) {
          this.shownSeq = seq;
          this.onFrame({
            bitmap, blob, url, request, revision, renderMs: Number.isFinite(renderMs) ? renderMs : null,
          });
        } else {
          bitmap.close();
        }
      } catch (error) {
        this.onError(error, request, this.isNewest(seq));
      }
    }
    this.inFlight -= 1;
    if (!this.idle) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }
}

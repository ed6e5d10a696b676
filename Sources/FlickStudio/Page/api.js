// The HTTP API of `flick studio` (docs/studio.md): JSON helpers, the session token for POSTs,
// and the Server-Sent Events stream.

const query = new URLSearchParams(location.search);
const queryToken = query.get('token');
if (queryToken) sessionStorage.setItem('flick-studio-token', queryToken);

/** The session token: from the page's URL (`?token=`), kept for reloads of the tab. */
export const token = queryToken || sessionStorage.getItem('flick-studio-token') || '';

/** An error answered by the server: `status` (HTTP) and its one-line `message`. */
export class APIError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * Builds `/api/PATH?…` from an object (arrays give repeated parameters; null/undefined are left
 * out), with the session token: the server takes it from the query alone, never from a cookie,
 * which the browser would also send to every other server on 127.0.0.1.
 */
export function apiURL(path, params = {}) {
  const search = new URLSearchParams({ token });
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return `/api/${path}${text ? `?${text}` : ''}`;
}

let lost = null;
let probing = false;
let over = false;
/** `callback()` runs once when the studio refuses the session token (it was restarted). */
export function onSessionLost(callback) {
  lost = callback;
}

/**
 * After a 401 or 403, or an event stream that failed: asks for the template list, which the
 * studio refuses for nothing but the token (a path out of the folder is 403 too, elsewhere).
 * Refused: this page's session is over (a restarted studio has a new token), and `onSessionLost`
 * says so. Resolves true then, false when the studio answered, null when it did not.
 */
export async function checkSession() {
  if (over) return true;
  if (probing) return false;
  probing = true;
  try {
    const response = await fetch(apiURL('templates'), { credentials: 'omit' });
    if (response.status === 401 || response.status === 403) {
      over = true;
      lost?.();
      return true;
    }
    return false;
  } catch {
    return null;
  } finally {
    probing = false;
  }
}

/** A refused answer's status: 401 or 403 may mean a restarted studio (checkSession). */
export function noteRefusal(status) {
  if (status === 401 || status === 403) checkSession();
}

async function failure(response) {
  noteRefusal(response.status);
  let body = null;
  let message = `${response.status} ${response.statusText}`;
  try {
    body = await response.json();
    if (body && body.error && body.error.message) message = body.error.message;
  } catch {
    // not JSON: keep the status line
  }
  return new APIError(response.status, message, body);
}

/** GET a JSON answer; throws an `APIError` on a non-2xx status. */
export async function getJSON(path, params, options = {}) {
  const response = await fetch(apiURL(path, params), { credentials: 'omit', signal: options.signal });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** POST a JSON body with the CSRF header; returns the JSON answer (or null when empty). */
export async function postJSON(path, params, body) {
  const response = await fetch(apiURL(path, params), {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', 'X-Flick-Token': token },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/**
 * The event stream: `handlers` maps event names (reload, error, progress, finishing, done,
 * failed) to functions of the parsed `data`; `onState(connected)` follows the connection. The
 * browser reconnects by itself while the studio does not answer; a stream the studio refused
 * (its token is not this page's) is checked (checkSession), and one closed for another reason
 * opened again after a few seconds.
 */
export function subscribe(handlers, onState) {
  const source = new EventSource(apiURL('events'));
  for (const [name, handler] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => {
      let data = null;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      handler(data);
    });
  }
  source.addEventListener('open', () => onState(true));
  source.addEventListener('error', async () => {
    onState(source.readyState === EventSource.OPEN);
    if (source.readyState !== EventSource.CLOSED) return;
    if (await checkSession()) return;
    setTimeout(() => subscribe(handlers, onState), 3000);
  });
  return source;
}

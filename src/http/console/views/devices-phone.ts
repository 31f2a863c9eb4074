/**
 * What a phone tracker needs typed into its app: the OsmAnd listener's address and the device id.
 *
 * The host is the configured public address (PUBLIC_URL) when it names one a phone can reach, and
 * otherwise the host the browser reached the console at: a manager who opens the console at the
 * server's network address gets exactly what a phone on that network reaches. The listener speaks
 * plain HTTP on its own port (OSMAND_PORT), so the address is always `http://host:port`.
 *
 * OsmAnd's own app fills a web address template ({0} latitude, {1} longitude, {2} time in ms, {3}
 * HDOP, {4} altitude, {6} bearing). Its speed placeholder is left out: the protocol reads `speed` in
 * knots, and the speed of a phone's track is worked out from its positions all the same.
 */
import { html, type Html } from '../../plumbing/html.js';

export interface TrackerServer {
  /** `http://host:port`, or null while the OsmAnd listener is off. */
  url: string | null;
  host: string;
  port: number | null;
  /** The host is this computer's own (127.0.0.1, localhost): a phone cannot reach it. */
  loopback: boolean;
  /** The server listens on a loopback address only (HOST): phones on the network are not heard. */
  listensLocally: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

/** Where phones send positions, from the configuration and the host the browser used. */
export function trackerServer(o: {
  publicUrl: string;
  requestHost: string;
  osmandPort: number | null;
  listenHost: string;
}): TrackerServer {
  const configured = new URL(o.publicUrl).hostname;
  const host = LOOPBACK.test(configured) && o.requestHost ? o.requestHost : configured;
  const port = o.osmandPort;
  return {
    url: port === null ? null : `http://${host}:${port}`,
    host,
    port,
    loopback: LOOPBACK.test(host),
    listensLocally: LOOPBACK.test(o.listenHost),
  };
}

export const osmandAddress = (base: string, id: string) =>
  `${base}/?id=${encodeURIComponent(id)}&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&bearing={6}`;

function setting(id: string, label: string, value: string): Html {
  return html`<div class="form-field wide"><label for="${id}">${label}</label>
<div class="copy-row"><input id="${id}" type="text" class="secret" readonly spellcheck="false" autocomplete="off" value="${value}">
<button type="button" class="secondary" data-copy="${id}" data-copy-status="${id}-status" hidden>Copy</button></div>
<span id="${id}-status" class="hint" role="status"></span></div>`;
}

/** The settings panel of a phone tracker: Traccar Client's two fields and OsmAnd's web address. */
export function phoneSettings(identifier: string, server: TrackerServer): Html {
  if (server.url === null)
    return html`<section class="panel" aria-labelledby="phone-title"><h2 id="phone-title">Phone settings</h2>
<p class="error" role="alert" id="osmand-off">The phone listener is off: phones cannot report until the server runs with <code>OSMAND_PORT</code> set (for example <code>OSMAND_PORT=5055</code>, or <code>on</code>). Device id: <code class="code">${identifier}</code>.</p></section>`;
  const warnings = [
    server.loopback
      ? html`<p class="error" role="alert">${server.host} is this computer's own address: a phone cannot reach it. Open the console at the server's network address, or set <code>PUBLIC_URL</code>, to see the address phones use.</p>`
      : '',
    server.listensLocally
      ? html`<p class="error" role="alert">The server listens on this computer only (<code>HOST</code>): start it with <code>HOST=0.0.0.0</code> for phones on the network to be heard.</p>`
      : '',
  ];
  return html`<section class="panel" aria-labelledby="phone-title"><h2 id="phone-title">Phone settings</h2>${warnings}
<h3>Traccar Client</h3><p class="hint">Settings: type these two, then start the service.</p>
<div class="form-grid">${setting('traccar-url', 'Server URL', server.url)}${setting('traccar-id', 'Device identifier', identifier)}</div>
<h3>OsmAnd</h3><p class="hint">Trip recording → Online tracking: this web address, with online tracking switched on.</p>
<div class="form-grid">${setting('osmand-url', 'Web address', osmandAddress(server.url, identifier))}</div>
<p class="muted">The protocol carries no password: whoever knows the device id can report positions for it. Keep it private, and revoke the tracker when the phone is lost.</p></section>`;
}

// The header's unread-alert count, kept live by the page's event stream (./stream.js, feed `alerts`):
// every `alerts` event carries {unread, latest}. The alerts page (./alerts.js) hears the same events
// through the document's `fleet-alerts` event.
import { consoleStream } from './stream.js';

const link = document.getElementById('alerts-link');
const count = link && link.querySelector('.alerts-count');

function show(unread) {
  if (!link || !count) return;
  count.textContent = unread > 99 ? '99+' : String(unread);
  count.dataset.unread = String(unread);
  count.hidden = unread === 0;
  link.setAttribute('aria-label', unread === 0 ? 'Alerts' : `Alerts, ${unread} unread`);
}

const es = link && consoleStream();
if (es) {
  es.addEventListener('alerts', (e) => {
    const state = JSON.parse(e.data);
    show(state.unread);
    document.dispatchEvent(new CustomEvent('fleet-alerts', { detail: state }));
  });
}

// The header's unread-alert count, kept live by the console's event stream (/console/api/stream with
// feeds=alerts): every `alerts` event carries {unread, latest}. The alerts page (./alerts.js) hears the
// same events through the document's `fleet-alerts` event, so one page opens one stream for alerts.
const link = document.getElementById('alerts-link');
const count = link && link.querySelector('.alerts-count');

function show(unread) {
  if (!link || !count) return;
  count.textContent = unread > 99 ? '99+' : String(unread);
  count.dataset.unread = String(unread);
  count.hidden = unread === 0;
  link.setAttribute('aria-label', unread === 0 ? 'Alerts' : `Alerts, ${unread} unread`);
}

if (link && window.EventSource) {
  const es = new EventSource('/console/api/stream?feeds=alerts');
  es.addEventListener('alerts', (e) => {
    const state = JSON.parse(e.data);
    show(state.unread);
    document.dispatchEvent(new CustomEvent('fleet-alerts', { detail: state }));
  });
}

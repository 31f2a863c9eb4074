// The alerts page: new alerts appear at the top of the first page as they happen. The header's script
// (./alerts-badge.js) hears the console's event stream and tells this page through the document's
// `fleet-alerts` event; the new entries come from /console/api/alerts?after=<newest shown>, already
// rendered by the server (the same markup as the page's own entries).
const feed = document.getElementById('alert-feed');
const live = document.getElementById('feed-live');
let newest = 0;
if (feed) feed.querySelectorAll('li[data-id]').forEach((li) => (newest = Math.max(newest, Number(li.dataset.id))));
let loading = false;

async function load() {
  if (!feed || loading) return;
  loading = true;
  try {
    const r = await fetch(`/console/api/alerts?after=${newest}`, { credentials: 'same-origin' });
    if (!r.ok) return;
    const body = await r.json();
    const fresh = body.items.filter((a) => a.id > newest && (feed.dataset.unreadOnly !== '1' || !a.read));
    // Oldest first, each inserted at the top: the newest ends up first.
    for (const a of fresh.reverse()) {
      feed.insertAdjacentHTML('afterbegin', a.html);
      feed.firstElementChild.classList.add('fresh');
      newest = Math.max(newest, a.id);
    }
    if (fresh.length) live.textContent = `${fresh.length} new alert${fresh.length === 1 ? '' : 's'}`;
  } finally {
    loading = false;
  }
}

const unreadTab = document.getElementById('unread-tab-count');
document.addEventListener('fleet-alerts', (e) => {
  if (unreadTab) unreadTab.textContent = String(e.detail.unread);
  if (feed && feed.dataset.live === '1' && e.detail.latest > newest) load();
});

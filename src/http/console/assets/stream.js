// The page's one connection to the console's event stream (/console/api/stream), shared by every script
// of the page that listens to it (the header's alert count, the map). It carries the feeds the page's
// body names in data-stream-feeds (src/web/console/layout.ts): `alerts` everywhere, `vehicles` as well
// on the map. A browser keeps few connections per server open at once, so one per page, not one per script.
let source = null;

/** The page's EventSource, opened on first use; null where the browser has none. */
export function consoleStream() {
  if (!source && window.EventSource) {
    const feeds = document.body.dataset.streamFeeds || 'alerts';
    source = new EventSource(`/console/api/stream?feeds=${encodeURIComponent(feeds)}`);
  }
  return source;
}

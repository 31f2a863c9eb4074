// The vehicle list of the console map with its search and filters (group, state, driver). Items are
// kept by vehicle id and updated in place, so a focused item keeps its focus when the stream updates.

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Sets an element's text only when it changes: live regions announce every change. */
function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

/** Replaces a select's options after its first `fixed` ones, keeping the chosen value when it is still there. */
function setOptions(select, fixed, options) {
  const key = JSON.stringify(options);
  if (select.dataset.options === key) return;
  select.dataset.options = key;
  const value = select.value;
  while (select.options.length > fixed) select.remove(fixed);
  options.forEach(([v, label]) => select.add(new Option(label, v)));
  select.value = value;
  if (select.value !== value) select.value = '';
}

/** The list in `root` (the list section); `onChoose(id)` when an item is chosen, `onFilter()` when the filters change. */
export function fleetList(root, onChoose, onFilter) {
  const form = root.querySelector('#fleet-filter');
  const q = form.querySelector('#fleet-q');
  const state = form.querySelector('#fleet-state');
  const group = form.querySelector('#fleet-group');
  const driver = form.querySelector('#fleet-driver');
  const count = root.querySelector('#fleet-count');
  const list = root.querySelector('#vehicle-list');
  const items = new Map();
  const stateLabels = new Map([...state.options].map((o) => [o.value, o.textContent]));
  let all = [];
  let selected = null;

  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('input', () => onFilter());
  form.addEventListener('change', () => onFilter());

  /** Whether a vehicle passes the search and the filters. */
  function matches(v) {
    const text = q.value.trim().toLowerCase();
    if (text && ![v.number, v.name, v.driver && v.driver.name].some((s) => s && s.toLowerCase().includes(text)))
      return false;
    if (state.value && v.state !== state.value) return false;
    if (group.value && !v.group_ids.includes(Number(group.value))) return false;
    if (driver.value === 'none') return v.driver === null;
    return !driver.value || (v.driver !== null && v.driver.id === Number(driver.value));
  }

  function item(v) {
    const li = el('li', 'fleet-item');
    li.dataset.id = String(v.id);
    const b = el('button', 'link');
    b.type = 'button';
    b.addEventListener('click', () => onChoose(v.id));
    // The whole item answers a pointer; the keyboard reaches its button.
    li.addEventListener('click', (e) => {
      if (!e.target.closest('button')) onChoose(v.id);
    });
    li.append(b, el('span', 'fleet-state'), el('span', 'fleet-driver'), el('span', 'fleet-place'));
    return li;
  }

  function fill(li, v) {
    const [b, st, dr, pl] = li.children;
    setText(b, v.name ? `${v.number} · ${v.name}` : v.number);
    li.dataset.state = v.state;
    setText(st, v.status);
    setText(dr, v.driver ? v.driver.name : 'No driver');
    setText(pl, v.position ? v.position.place || 'No place name' : '');
    if (v.id === selected) li.setAttribute('aria-current', 'true');
    else li.removeAttribute('aria-current');
  }

  /** Shows the fleet `view` (the console's JSON) with `chosen` marked; returns the vehicles that pass the filters. */
  function render(view, chosen) {
    all = view.vehicles;
    selected = chosen;
    const drivers = new Map();
    all.forEach((v) => v.driver && drivers.set(String(v.driver.id), v.driver.name));
    setOptions(
      driver,
      2,
      [...drivers].sort((a, b) => a[1].localeCompare(b[1])),
    );
    setOptions(
      group,
      1,
      view.groups.map((g) => [String(g.id), g.name]),
    );
    const counts = {};
    all.forEach((v) => (counts[v.state] = (counts[v.state] || 0) + 1));
    [...state.options].forEach((o) => {
      if (o.value) setText(o, `${stateLabels.get(o.value)} (${counts[o.value] || 0})`);
    });

    const shown = all.filter(matches);
    const keep = new Set(shown.map((v) => v.id));
    items.forEach((li, id) => {
      if (!keep.has(id)) {
        li.remove();
        items.delete(id);
      }
    });
    shown.forEach((v) => {
      if (!items.has(v.id)) items.set(v.id, item(v));
      fill(items.get(v.id), v);
    });
    // Reordered only when the order changes: moving a node takes the focus from it.
    const order = shown.map((v) => items.get(v.id));
    if (order.some((li, i) => list.children[i] !== li)) list.replaceChildren(...order);
    let empty = list.querySelector('.empty');
    if (!shown.length) {
      if (!empty) list.appendChild((empty = el('li', 'muted empty')));
      setText(empty, all.length ? 'No vehicle matches.' : 'The company has no active vehicle.');
    } else if (empty) empty.remove();
    setText(
      count,
      shown.length === all.length ? `${all.length} vehicles` : `${shown.length} of ${all.length} vehicles`,
    );
    return shown;
  }

  return { render };
}

// The console map: projected outlines from the page, vehicles from /console/api/vehicles, kept live by
// the server-sent events of /console/api/stream. Pan and zoom with the buttons, the wheel, dragging
// or the keyboard (arrows, + and -, 0 to reset).
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var svg = document.getElementById('map');
  if (!svg) return;
  var proj = JSON.parse(svg.getAttribute('data-projection'));
  var home = svg.getAttribute('data-home').split(' ').map(Number);
  var view = home.slice();
  var layer = document.getElementById('vehicles');
  var trackLayer = document.getElementById('track');
  var rows = document.getElementById('vehicle-rows');
  var details = document.getElementById('details');
  var live = document.getElementById('live');
  var vehicles = [];
  var selected = null;

  function project(lat, lon) {
    return [(lon - proj.lon0) * proj.k * proj.c, (proj.top - lat) * proj.k];
  }
  function arrowScale() {
    return view[2] / home[2];
  }

  function setView(v) {
    var w = Math.min(Math.max(v[2], 4), home[2] * 3);
    var h = w * (home[3] / home[2]);
    var cx = v[0] + v[2] / 2,
      cy = v[1] + v[3] / 2;
    view = [cx - w / 2, cy - h / 2, w, h];
    svg.setAttribute(
      'viewBox',
      view
        .map(function (n) {
          return n.toFixed(2);
        })
        .join(' '),
    );
    draw();
  }
  function zoom(f, cx, cy) {
    if (cx === undefined) {
      cx = view[0] + view[2] / 2;
      cy = view[1] + view[3] / 2;
    }
    var w = view[2] / f,
      h = view[3] / f;
    setView([cx - (cx - view[0]) / f, cy - (cy - view[1]) / f, w, h]);
  }
  function pan(fx, fy) {
    setView([view[0] + fx * view[2], view[1] + fy * view[3], view[2], view[3]]);
  }

  var actions = {
    in: function () {
      zoom(1.5);
    },
    out: function () {
      zoom(1 / 1.5);
    },
    left: function () {
      pan(-0.2, 0);
    },
    right: function () {
      pan(0.2, 0);
    },
    up: function () {
      pan(0, -0.2);
    },
    down: function () {
      pan(0, 0.2);
    },
    home: function () {
      setView(home.slice());
    },
  };
  document.querySelectorAll('[data-map]').forEach(function (b) {
    b.addEventListener('click', function () {
      actions[b.getAttribute('data-map')]();
    });
  });
  svg.addEventListener('keydown', function (e) {
    var keys = {
      ArrowLeft: 'left',
      ArrowRight: 'right',
      ArrowUp: 'up',
      ArrowDown: 'down',
      '+': 'in',
      '=': 'in',
      '-': 'out',
      0: 'home',
    };
    var a = keys[e.key];
    if (a && e.target === svg) {
      e.preventDefault();
      actions[a]();
    }
  });
  function toMap(e) {
    var r = svg.getBoundingClientRect();
    var s = Math.max(view[2] / r.width, view[3] / r.height);
    var ox = (r.width - view[2] / s) / 2,
      oy = (r.height - view[3] / s) / 2;
    return [view[0] + (e.clientX - r.left - ox) * s, view[1] + (e.clientY - r.top - oy) * s, s];
  }
  svg.addEventListener(
    'wheel',
    function (e) {
      e.preventDefault();
      var p = toMap(e);
      zoom(e.deltaY < 0 ? 1.25 : 0.8, p[0], p[1]);
    },
    { passive: false },
  );
  var drag = null;
  svg.addEventListener('pointerdown', function (e) {
    if (e.target.closest && e.target.closest('.veh')) return;
    drag = { x: e.clientX, y: e.clientY, view: view.slice(), s: toMap(e)[2] };
  });
  window.addEventListener('pointermove', function (e) {
    if (!drag) return;
    var dx = (e.clientX - drag.x) * drag.s,
      dy = (e.clientY - drag.y) * drag.s;
    setView([drag.view[0] - dx, drag.view[1] - dy, drag.view[2], drag.view[3]]);
  });
  window.addEventListener('pointerup', function () {
    drag = null;
  });

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (cls) el.className = cls;
    return el;
  }
  function when(iso) {
    return new Date(iso).toLocaleString();
  }

  function draw() {
    var s = arrowScale();
    layer.replaceChildren();
    vehicles.forEach(function (v) {
      var p = project(v.lat, v.lon);
      var g = document.createElementNS(SVG, 'g');
      g.setAttribute('class', 'veh ' + v.status + (v.id === selected ? ' selected' : ''));
      g.setAttribute('data-id', String(v.id));
      g.setAttribute('data-located-at', v.located_at);
      g.setAttribute('data-lon', String(v.lon));
      g.setAttribute(
        'transform',
        'translate(' +
          p[0].toFixed(2) +
          ',' +
          p[1].toFixed(2) +
          ') rotate(' +
          v.bearing +
          ') scale(' +
          s.toFixed(3) +
          ')',
      );
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', 'Vehicle ' + v.number + ', ' + v.status);
      var path = document.createElementNS(SVG, 'path');
      path.setAttribute('d', 'M0,-7 L5,6 L0,3 L-5,6 Z');
      g.appendChild(path);
      var title = document.createElementNS(SVG, 'title');
      title.textContent = v.number + ' (' + v.status + ')';
      g.appendChild(title);
      g.addEventListener('click', function () {
        choose(v.id);
      });
      g.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          choose(v.id);
        }
      });
      layer.appendChild(g);
    });
  }

  function list() {
    rows.replaceChildren();
    if (!vehicles.length) {
      var tr0 = document.createElement('tr');
      var td0 = text('td', 'No vehicle has reported a position yet.', 'muted');
      td0.colSpan = 3;
      tr0.appendChild(td0);
      rows.appendChild(tr0);
      return;
    }
    vehicles.forEach(function (v) {
      var tr = document.createElement('tr');
      var td = document.createElement('td');
      var b = text('button', v.number, 'secondary');
      b.type = 'button';
      b.addEventListener('click', function () {
        choose(v.id);
      });
      td.appendChild(b);
      tr.appendChild(td);
      tr.appendChild(text('td', v.status));
      tr.appendChild(text('td', v.driver || '—'));
      rows.appendChild(tr);
    });
  }

  function showDetails(v) {
    details.replaceChildren(text('h2', 'Vehicle ' + v.number));
    var dl = document.createElement('dl');
    [
      ['Driver', v.driver || 'No driver'],
      ['Status', v.status],
      ['Speed', Math.round(v.speed_kph) + ' km/h'],
      ['Heading', Math.round(v.bearing) + '°'],
      ['Last update', when(v.located_at)],
    ].forEach(function (kv) {
      dl.appendChild(text('dt', kv[0]));
      dl.appendChild(text('dd', kv[1]));
    });
    details.appendChild(dl);
  }

  function loadTrack(id) {
    fetch('/console/api/vehicles/' + id + '/track', { credentials: 'same-origin' })
      .then(function (r) {
        return r.ok ? r.json() : { track: [] };
      })
      .then(function (body) {
        if (selected !== id) return;
        trackLayer.replaceChildren();
        if (body.track.length < 2) return;
        var line = document.createElementNS(SVG, 'polyline');
        line.setAttribute(
          'points',
          body.track
            .map(function (p) {
              return project(p[0], p[1])
                .map(function (n) {
                  return n.toFixed(2);
                })
                .join(',');
            })
            .join(' '),
        );
        var t = document.createElementNS(SVG, 'title');
        t.textContent = "Today's track";
        line.appendChild(t);
        trackLayer.appendChild(line);
      });
  }

  function choose(id) {
    selected = id;
    var v = vehicles.find(function (x) {
      return x.id === id;
    });
    if (!v) return;
    showDetails(v);
    draw();
    loadTrack(id);
  }

  function update(list2) {
    vehicles = list2;
    draw();
    list();
    if (selected !== null) {
      var v = vehicles.find(function (x) {
        return x.id === selected;
      });
      if (v) {
        showDetails(v);
        loadTrack(selected);
      }
    }
    live.textContent = 'Live · updated ' + new Date().toLocaleTimeString();
  }

  fetch('/console/api/vehicles', { credentials: 'same-origin' })
    .then(function (r) {
      return r.json();
    })
    .then(function (body) {
      update(body.vehicles);
    });
  if (window.EventSource) {
    var es = new EventSource('/console/api/stream');
    es.addEventListener('vehicles', function (e) {
      update(JSON.parse(e.data).vehicles);
    });
    es.addEventListener('error', function () {
      live.textContent = 'Reconnecting…';
    });
  }
})();

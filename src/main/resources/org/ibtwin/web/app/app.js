'use strict';
// ibtwin's web view: the map (cytoscape.js), the tables, the events (server-sent), traffic (uPlot), the doctor.
// Every figure comes from the JSON API under /api/; the page only reads.
const ibtwin = window.ibtwin = { ready: false, firstPaint: null, expanded: new Set(), lastEvent: 0 };
const $ = (id) => document.getElementById(id);
const api = (path) => fetch('/api/' + path).then((r) => { if (!r.ok) throw new Error(path + ': ' + r.status); return r.json(); });
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const TABLES = ['devices', 'ports', 'links', 'cables', 'partitions', 'sms'];
const COLOURS = { ok: '#4a9a4a', degraded: '#f0a000', errors: '#b040c0', congested: '#e06010', down: '#d02020' };
const TIER_COLOURS = { leaf: '#2f6fb0', spine: '#6a4fb0', core: '#a03a7a', host: '#6f8f6f' };

// ------------------------------------------------------------------------------------------------ pages
function route() {
  const hash = location.hash.replace(/^#/, '') || 'map';
  const [page, arg] = hash.split('/', 2);
  document.querySelectorAll('header nav a').forEach((a) => a.classList.toggle('active', a.getAttribute('href') === '#' + page));
  const section = TABLES.includes(page) ? 'table' : page;
  document.querySelectorAll('.page').forEach((p) => p.classList.toggle('shown', p.id === 'page-' + section));
  if (page === 'map') {
    if (ibtwin.cy) { ibtwin.cy.resize(); }
    if (arg && arg.startsWith('focus=')) { focus(decodeURIComponent(arg.substring(6))); }
  } else if (TABLES.includes(page)) {
    showTable(page);
  } else if (page === 'traffic') {
    loadTraffic();
  } else if (page === 'doctor') {
    loadDoctor();
  }
}
window.addEventListener('hashchange', route);

// ------------------------------------------------------------------------------------------------ map
const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'text-valign': 'bottom', 'text-margin-y': 3 } },
  { selector: 'node[kind="switch"]', style: { shape: 'round-rectangle', width: 46, height: 22,
    'background-color': (n) => TIER_COLOURS[n.data('tier')] || '#555' } },
  { selector: 'node[kind="rack"]', style: { shape: 'barrel', width: 60, height: 30, 'background-color': '#8fa88f',
    'border-width': 3, 'border-color': (n) => COLOURS[n.data('health')] || '#999' } },
  { selector: 'node[kind="rack"]:parent', style: { shape: 'round-rectangle', 'background-opacity': 0.12,
    'text-valign': 'top', 'border-width': 2 } },
  { selector: 'node[kind="host"]', style: { shape: 'ellipse', width: 12, height: 12, 'font-size': 7,
    'background-color': TIER_COLOURS.host } },
  { selector: 'edge', style: { 'curve-style': 'bezier', width: (e) => Math.max(1, (e.data('lanes') || 4) / 2),
    'line-color': (e) => COLOURS[e.data('health')] || '#999', opacity: 0.85 } },
  { selector: 'edge[health="down"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge[health="degraded"], edge[health="errors"], edge[health="down"]', style: { 'z-index': 10 } },
  { selector: ':selected', style: { 'overlay-color': '#39f', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
];

async function loadMap() {
  const t0 = performance.now();
  const g = await api('map');
  // a big fabric: straight (haystack) edges, hidden while panning, one pixel a CSS pixel: it stays responsive
  const big = g.edges.length > 500;
  const style = big ? STYLE.concat([{ selector: 'edge', style: { 'curve-style': 'haystack', 'haystack-radius': 0.3 } }]) : STYLE;
  const cy = ibtwin.cy = cytoscape({ container: $('cy'), style, wheelSensitivity: 0.3,
    elements: { nodes: g.nodes, edges: g.edges }, minZoom: 0.02, maxZoom: 4, pixelRatio: big ? 1 : 'auto',
    hideEdgesOnViewport: big, textureOnViewport: big });
  ibtwin.bundled = g.bundled;
  layout();
  cy.one('render', () => {
    ibtwin.firstPaint = performance.now() - t0;
  });
  cy.on('tap', 'node, edge', (e) => details(e.target));
  cy.on('dbltap', 'node[kind="rack"]', (e) => expand(e.target.id()));
  summary();
  ibtwin.ready = true;
}

/** Tiers top to bottom: the top tier's switches as the roots of cytoscape's breadth-first layout. */
function layout() {
  const cy = ibtwin.cy;
  const sw = cy.nodes('[kind="switch"]');
  const top = Math.max(...sw.map((n) => n.data('rank')).filter((r) => r < 1e6), 0);
  const roots = sw.filter((n) => n.data('rank') === top);
  cy.elements().not('node[kind="host"]').layout({ name: 'breadthfirst', roots: roots.length ? roots : undefined,
    directed: false, spacingFactor: sw.length > 200 ? 0.4 : 1.1, animate: false, avoidOverlap: sw.length < 500,
    circle: false }).run();
  cy.nodes('[kind="rack"]').forEach((r) => { if (r.isParent()) placeHosts(r); });
  cy.fit(undefined, 20);
}

function placeHosts(rack) {
  const kids = rack.children();
  const p = rack.position();
  const side = Math.ceil(Math.sqrt(kids.length)) * 22;
  kids.layout({ name: 'grid', animate: false, boundingBox: { x1: p.x - side / 2, y1: p.y, w: side, h: side } }).run();
}

function summary() {
  const cy = ibtwin.cy;
  const switches = cy.nodes('[kind="switch"]').length;
  const racks = cy.nodes('[kind="rack"]');
  let hosts = 0;
  racks.forEach((r) => { hosts += r.data('hosts'); });
  const health = {};
  cy.edges('[kind="link"]').forEach((e) => { health[e.data('health')] = (health[e.data('health')] || 0) + 1; });
  $('map-summary').textContent = `${switches} switches, ${racks.length} racks (${hosts} hosts)` +
    Object.entries(health).filter(([k]) => k !== 'ok').map(([k, v]) => `, ${v} ${k}`).join('');
  ibtwin.counts = { switches, racks: racks.length, hosts };
}

async function expand(rackId) {
  const cy = ibtwin.cy;
  const rack = cy.getElementById(rackId);
  if (!rack.length || ibtwin.expanded.has(rackId)) { return; }
  const g = await api('map/rack?id=' + encodeURIComponent(rackId));
  ibtwin.expanded.add(rackId);
  cy.add(g.nodes);
  cy.add(g.edges);
  cy.getElementById('E' + rackId).style('display', 'none');
  placeHosts(rack);
}

function collapse() {
  const cy = ibtwin.cy;
  ibtwin.expanded.forEach((id) => {
    cy.getElementById(id).children().remove();
    cy.getElementById('E' + id).style('display', 'element');
  });
  ibtwin.expanded.clear();
}

/** Selects a map element by id (unfolding the rack of a host or a host's link first) and shows its details. */
async function focus(id) {
  const cy = ibtwin.cy;
  if (!cy) { return; }
  let el = cy.getElementById(id);
  if (!el.length) {
    let hostId = null;
    if (id.startsWith('L')) {
      const l = await api('link?id=' + encodeURIComponent(id)).catch(() => null);
      if (l) { hostId = cy.getElementById(l.link.aNode).length ? l.link.bNode : l.link.aNode; }
      if (l && ibtwin.bundled && !hostId.startsWith('N')) { hostId = null; }
    } else if (id.startsWith('N')) {
      hostId = id;
    }
    if (hostId) {
      const n = await api('node?id=' + encodeURIComponent(hostId)).catch(() => null);
      if (n && n.node.rack) { await expand(n.node.rack); }
    }
    el = cy.getElementById(id);
    if (!el.length && ibtwin.bundled) { el = cy.edges().filter((e) => (e.data('links') || []).includes(id)); }
  }
  if (!el.length) { return; }
  cy.elements().unselect();
  el.select();
  cy.animate({ center: { eles: el }, zoom: Math.max(cy.zoom(), 1) }, { duration: 200 });
  details(el.first());
}

function kv(rows) {
  return '<table>' + rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('') + '</table>';
}

function portTable(ports) {
  return '<table><tr><th>port</th><th>state</th><th>width</th><th>speed</th><th>could be</th><th>peer</th>' +
    '<th>LID</th><th>Gb/s</th><th>errors</th></tr>' + ports.map((p) => {
    const c = p.counters || {};
    const errs = (c.SymbolErrorCounter || 0) + (c.LinkDownedCounter || 0) + (c.PortRcvErrors || 0) + (c.PortXmitDiscards || 0);
    return `<tr><td>${p.port}</td><td>${esc(p.state)}</td><td>${esc(p.width)}</td><td>${esc(p.speed)}</td>` +
      `<td>${esc(p.couldBe)}</td><td>${esc(p.peer)}</td><td>${p.lid}</td><td>${p.txGbps.toFixed(1)}</td><td>${errs}</td></tr>`;
  }).join('') + '</table>';
}

function findingList(fs) {
  if (!fs || !fs.length) { return '<p class="hint">No findings of the doctor here.</p>'; }
  return '<h4>Doctor</h4><ul>' + fs.map((f) => `<li><a href="#doctor">${esc(f.id)}</a> ${esc(f.severity)}: ${esc(f.title)}</li>`).join('') + '</ul>';
}

async function details(el) {
  const box = $('details');
  const d = el.data();
  if (el.isEdge() && d.kind === 'link' && !d.links) {
    const l = await api('link?id=' + encodeURIComponent(d.id));
    const k = l.link;
    box.innerHTML = `<h3 class="link-name">${esc(k.name)}</h3>` + kv([['health', k.health], ['why', k.why.join('; ')],
      ['end A', k.a], ['end B', k.b], ['width', k.width], ['speed', k.speed], ['could be', k.couldBe || '-'],
      ['data rate', k.gbps + ' Gb/s'], ['cable', l.cable ? `${l.cable.kind} ${l.cable.lengthMetres} m, up to ${l.cable.maxWidth}${l.cable.maxSpeed}` : '-']]) +
      '<h4>Ports</h4>' + portTable(l.ports) + findingList(l.findings);
  } else if (el.isEdge() && d.links) {
    box.innerHTML = `<h3>${esc(d.label)}</h3><p>${esc(d.health)}</p><ul>` + d.links.map((id) =>
      `<li><a href="#map/focus=${encodeURIComponent(id)}">${esc(id)}</a></li>`).join('') + '</ul>';
  } else if (el.isEdge()) {
    box.innerHTML = `<h3>host links of ${esc(ibtwin.cy.getElementById(d.source).data('label'))}</h3>` +
      `<p>worst: ${esc(d.health)}. Double-click the rack to unfold its hosts.</p>`;
  } else if (d.kind === 'rack') {
    box.innerHTML = `<h3>${esc(d.label)}</h3><p>worst host link: <span class="h-${d.health}">${esc(d.health)}</span></p>` +
      `<button id="rack-expand">unfold hosts</button>`;
    $('rack-expand').onclick = () => expand(d.id);
  } else {
    const n = await api('node?id=' + encodeURIComponent(d.id));
    const m = n.node;
    box.innerHTML = `<h3>${esc(m.name)}</h3>` + kv([['type', m.type], ['tier', m.tierName], ['GUID', m.guid],
      ['LIDs', m.lids || '-'], ['ports', m.ports], ['rack', m.rackName || '-'], ['description', m.description]]) +
      '<h4>Ports</h4>' + portTable(n.ports.filter((p) => p.peer || p.state !== 'DOWN')) + findingList(n.findings);
  }
}

async function search(text) {
  const cy = ibtwin.cy;
  const q = text.trim().toLowerCase();
  if (!q) { return; }
  const hit = cy.nodes().filter((n) => [n.data('label'), n.data('guid'), ...(String(n.data('lids') || '').split(','))]
    .some((v) => v && String(v).toLowerCase() === q));
  if (hit.length) { focus(hit.first().id()); return; }
  const t = await api('devices?limit=1&q=' + encodeURIComponent(q));
  if (t.rows.length) { focus(t.rows[0][t.columns.indexOf('id')]); }
}

/** Fetches the map again and updates the health of what is drawn, without laying it out again. */
async function refreshHealth() {
  const cy = ibtwin.cy;
  const g = await api('map');
  cy.batch(() => {
    g.nodes.concat(g.edges).forEach((e) => {
      const el = cy.getElementById(e.data.id);
      if (el.length && e.data.health) { el.data('health', e.data.health); }
    });
  });
  for (const id of ibtwin.expanded) {
    const r = await api('map/rack?id=' + encodeURIComponent(id));
    cy.batch(() => r.edges.forEach((e) => { const el = cy.getElementById(e.data.id); if (el.length) { el.data('health', e.data.health); } }));
  }
  summary();
}

// ------------------------------------------------------------------------------------------------ tables
let tableName = null;
let filterTimer = null;
async function showTable(name) {
  if (tableName !== name) { $('table-filter').value = ''; }
  tableName = name;
  const q = $('table-filter').value;
  const t = await api(name + '?q=' + encodeURIComponent(q));
  if (name !== tableName || q !== $('table-filter').value) { return; }
  $('table-csv').href = '/api/' + name + '.csv?q=' + encodeURIComponent(q);
  $('table-csv').setAttribute('download', 'ibtwin-' + name + '.csv');
  const idCol = t.columns.indexOf('id');
  $('table').querySelector('thead').innerHTML = '<tr>' + t.columns.map((c) => `<th>${esc(c)}</th>`).join('') + '</tr>';
  $('table').querySelector('tbody').innerHTML = t.rows.map((r) => `<tr${idCol >= 0 ? ` data-id="${esc(r[idCol])}"` : ''}>` +
    r.map((v, i) => i === idCol ? `<td><a href="#map/focus=${encodeURIComponent(String(v).split('/')[0])}">map</a></td>`
      : `<td>${esc(v)}</td>`).join('') + '</tr>').join('');
  $('table-count').textContent = `${t.rows.length} shown of ${t.total} matching` + (t.rows.length < t.total ? ' (export CSV for all)' : '');
  $('table').dataset.total = t.total;
}
$('table-filter').addEventListener('input', () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => showTable(tableName), 150);
});

// ------------------------------------------------------------------------------------------------ events
function addEvent(e) {
  if (e.seq <= ibtwin.lastEvent) { return; }
  ibtwin.lastEvent = e.seq;
  const li = document.createElement('li');
  li.dataset.kind = e.kind;
  li.innerHTML = `<span class="time">${esc(e.time)}</span><b>${esc(e.kind)}</b> ${esc(e.text)}` +
    (e.target ? ` <a href="#map/focus=${encodeURIComponent(e.target)}">map</a>` : '');
  $('events').prepend(li);
  while ($('events').children.length > 2000) { $('events').lastChild.remove(); }
}

let healthTimer = null;
function listen() {
  const es = new EventSource('/api/events/stream');
  es.onopen = () => $('live').classList.add('on');
  es.onerror = () => $('live').classList.remove('on');
  const on = (ev) => {
    const e = JSON.parse(ev.data);
    addEvent(e);
    if (e.kind === 'link' && ibtwin.cy) {
      const el = ibtwin.cy.getElementById(e.target);
      if (el.length) { el.data('health', e.data.health); summary(); }
      clearTimeout(healthTimer);
      healthTimer = setTimeout(refreshHealth, 100);
    }
  };
  ['link', 'sweep', 'console', 'source', 'traffic', 'sm'].forEach((k) => es.addEventListener(k, on));
}

// ------------------------------------------------------------------------------------------------ traffic
let bars = null;
let history = null;
const portCharts = {};
let trafficTimer = null;
async function loadTraffic() {
  clearTimeout(trafficTimer);
  if (!$('page-traffic').classList.contains('shown')) { return; }
  const t = await api('traffic');
  $('traffic-state').textContent = !t.available ? 'This source has no counters to rate (not a running twin).'
    : (t.running ? `traffic: ${t.pattern}, ${t.flows} flows, ${t.aggregateGbps.toFixed(1)} Gb/s aggregate` +
      (t.unrouted ? `, ${t.unrouted} without a path` : '') : 'traffic: idle (start it in the console: traffic start ...)') +
      ` — t=${t.seconds.toFixed(2)} s simulated`;
  if (t.available) {
    const tiers = t.tiers || [];
    const x = tiers.map((_, i) => i);
    const data = [x, tiers.map((b) => 100 * b.txShare), tiers.map((b) => 100 * b.congestedShare)];
    const barPaths = uPlot.paths.bars({ size: [0.4, 60] });
    if (!bars) {
      bars = new uPlot({ width: 560, height: 260, scales: { x: { time: false, range: [-0.5, Math.max(0.5, tiers.length - 0.5)] }, y: { range: [0, 100] } },
        axes: [{ values: (u, vals) => vals.map((v) => (ibtwin.tierNames || [])[v] || '') , incrs: [1] }, { label: '% of capacity' }],
        series: [{}, { label: 'transmitted %', stroke: '#2f6fb0', fill: 'rgba(47,111,176,0.6)', paths: barPaths },
          { label: 'congested %', stroke: '#e06010', fill: 'rgba(224,96,16,0.7)', paths: barPaths }] }, data, $('tier-bars'));
    }
    ibtwin.tierNames = tiers.map((b) => b.tier);
    bars.setData(data);
    const h = t.history || [];
    const cols = t.historyColumns || [];
    const hd = [h.map((r) => r[0])].concat(cols.map((_, i) => h.map((r) => 100 * r[1 + 2 * i])));
    if (!history) {
      const palette = ['#2f6fb0', '#6a4fb0', '#a03a7a', '#b0603a', '#3a8a6a', '#7a7a2a'];
      history = new uPlot({ width: 560, height: 260, scales: { x: { time: false } },
        axes: [{ label: 'simulated s' }, { label: '% transmitted' }],
        series: [{}].concat(cols.map((c, i) => ({ label: c, stroke: palette[i % palette.length] }))) }, hd, $('tier-history'));
    }
    history.setData(hd);
    $('traffic-top').querySelector('tbody').innerHTML = (t.top || []).map((p) =>
      `<tr><td><a href="#map/focus=${encodeURIComponent(p.linkId)}">${esc(p.port)}</a></td><td>${p.txGbps.toFixed(1)}</td>` +
      `<td>${(100 * p.txShare).toFixed(0)}%</td><td>${p.waitPerSecond.toFixed(0)}</td></tr>`).join('');
    Object.entries(t.portHistory || {}).forEach(([port, rows]) => {
      const d = [rows.map((r) => r[0]), rows.map((r) => r[1])];
      if (!portCharts[port]) {
        const div = document.createElement('div');
        div.className = 'port-chart';
        $('port-charts').appendChild(div);
        portCharts[port] = new uPlot({ width: 360, height: 140, title: port, scales: { x: { time: false } },
          series: [{}, { label: 'Gb/s', stroke: '#2f6fb0' }] }, d, div);
      } else {
        portCharts[port].setData(d);
      }
    });
  }
  trafficTimer = setTimeout(loadTraffic, 1000);
}

// ------------------------------------------------------------------------------------------------ doctor
async function loadDoctor() {
  const r = await api('doctor');
  const s = r.summary;
  $('doctor-summary').textContent = `${r.source}: ${r.shape}. ${s.findings} findings.`;
  $('findings').innerHTML = r.findings.map((f) => `<div class="finding ${esc(f.severity)}" data-id="${esc(f.id)}">` +
    `<span class="fid">${esc(f.id)}</span><b>${esc(f.severity)}</b> ${esc(f.where)}: ${esc(f.title)}` +
    f.targets.map((t) => ` <a class="on-map" href="#map/focus=${encodeURIComponent(t)}">show on map</a>`).join('') +
    `<pre>${f.evidence.map(esc).join('\n')}</pre><p>fix: ${esc(f.fix)}</p></div>`).join('');
}

// ------------------------------------------------------------------------------------------------ start
(async () => {
  const f = await api('fabric');
  $('source').textContent = `${f.source}: ${f.shape}`;
  document.title = 'ibtwin: ' + f.source;
  (await api('events')).forEach(addEvent);
  listen();
  $('page-map').classList.add('shown');
  await loadMap();
  $('map-search').addEventListener('keydown', (e) => { if (e.key === 'Enter') { search(e.target.value); } });
  $('map-fit').onclick = () => ibtwin.cy.fit(undefined, 20);
  $('map-collapse').onclick = collapse;
  route();
})();

'use strict';
// ibtwin's web view: the map (cytoscape.js), the tables, the events (server-sent), traffic (uPlot), the doctor.
// Every figure comes from the JSON API under /api/; the page only reads.
const ibtwin = window.ibtwin = { ready: false, firstPaint: null, expanded: new Set(), lastEvent: 0 };
const $ = (id) => document.getElementById(id);
const api = (path) => fetch('/api/' + path).then((r) => { if (!r.ok) throw new Error(path + ': ' + r.status); return r.json(); });
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const TABLES = ['devices', 'ports', 'links', 'cables', 'partitions', 'sms'];
const DIFF_COLOURS = { added: '#1a9a3a', gone: '#d02020', changed: '#f0a000', same: '#b8b8b8' };
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
  } else if (page === 'what-if') {
    loadWhatIfs(arg && arg.startsWith('id=') ? Number(arg.substring(3)) : null);
  } else if (page === 'snapshots') {
    loadSnapshots();
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
  { selector: 'node[kind="pod"], node[kind="group"]', style: { shape: 'round-rectangle', width: 'data(size)',
    height: (n) => n.data('size') * 0.3, 'font-size': (n) => n.data('size') / 7, 'text-wrap': 'wrap', 'text-valign': 'center',
    color: '#fff', 'text-outline-width': (n) => n.data('size') / 150, 'text-outline-color': '#333',
    'background-color': (n) => TIER_COLOURS[n.data('tier')] || '#555' } },
  { selector: 'node[kind="pod"][tier="host"]', style: { shape: 'barrel', 'background-color': '#8fa88f', 'border-width': 4,
    'border-color': (n) => COLOURS[n.data('health')] || '#999' } },
  { selector: 'node[kind="host"]', style: { shape: 'ellipse', width: 12, height: 12, 'font-size': 7,
    'background-color': TIER_COLOURS.host } },
  { selector: 'edge', style: { 'curve-style': 'bezier', width: (e) => Math.min(14, Math.max(1, (e.data('lanes') || 4) / 2)),
    'line-color': (e) => COLOURS[e.data('health')] || '#999', opacity: 0.85 } },
  { selector: 'edge[health="down"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge[health="degraded"], edge[health="errors"], edge[health="down"]', style: { 'z-index': 10 } },
  { selector: ':selected', style: { 'overlay-color': '#39f', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  // what-if and snapshot maps: what the report or the diff is about
  { selector: '.dim', style: { opacity: 0.25 } },
  { selector: 'edge.route-before', style: { 'line-color': '#2f6fb0', width: 7, opacity: 1, 'z-index': 20, 'line-style': 'solid' } },
  { selector: 'edge.route-after', style: { 'line-color': '#10a0a0', width: 7, opacity: 1, 'z-index': 21, 'line-style': 'solid' } },
  { selector: 'edge.route-before.route-after', style: { 'line-color': '#6a4fb0' } },
  { selector: 'edge.rising', style: { 'line-color': '#e06010', width: 5, opacity: 1, 'z-index': 15 } },
  { selector: 'edge.changed', style: { 'line-color': '#d02020', width: 8, opacity: 1, 'z-index': 30, 'line-style': 'dashed' } },
  { selector: 'node.changed', style: { 'border-width': 5, 'border-color': '#d02020', opacity: 1 } },
  { selector: 'node.end', style: { 'border-width': 4, 'border-color': '#2f6fb0', opacity: 1, 'font-weight': 'bold' } },
  { selector: 'node.on-route', style: { opacity: 1 } },
  { selector: '[diff]', style: { opacity: 1 } },
  { selector: 'edge[diff]', style: { 'line-color': (e) => DIFF_COLOURS[e.data('diff')], 'line-style': 'solid' } },
  { selector: 'edge[diff="gone"]', style: { 'line-style': 'dashed', width: 5, 'z-index': 20 } },
  { selector: 'edge[diff="added"], edge[diff="changed"]', style: { width: 5, 'z-index': 20 } },
  { selector: 'node[diff="added"], node[diff="gone"], node[diff="changed"]', style: { 'border-width': 5,
    'border-color': (n) => DIFF_COLOURS[n.data('diff')] } },
  { selector: 'node[diff="gone"]', style: { 'border-style': 'dashed' } },
];

/** A cytoscape map of a graph from /api/map (or a snapshot diff), laid out by tiers: a big one drawn cheaply. */
function makeMap(container, g) {
  if (g.preset) { g.nodes.forEach((n) => { n.data.preset = true; }); }
  const big = g.edges.length > 500;
  let style = big ? STYLE.concat([{ selector: 'edge', style: { 'curve-style': 'haystack', 'haystack-radius': 0.3 } }]) : STYLE;
  if (g.preset) {   // a row per tier across the screen: labels big enough to read once fitted
    style = style.concat([{ selector: 'node[kind="switch"]', style: { 'font-size': 20 } },
      { selector: 'node[kind="rack"][short]', style: { label: 'data(short)', 'font-size': 18 } }]);
  }
  const cy = cytoscape({ container, style, wheelSensitivity: 0.3,
    elements: { nodes: g.nodes, edges: g.edges }, layout: g.preset ? { name: 'preset' } : undefined, minZoom: 0.02, maxZoom: 4, pixelRatio: big ? 1 : 'auto',
    hideEdgesOnViewport: big, textureOnViewport: big });
  cy.expanded = new Set();
  layout(cy);
  return cy;
}

/** The map's API path: a big fabric opens as pods, unless the page was opened with ?pods=0 (switch by switch). */
function mapPath() {
  return window.ibtwinEarly.path;
}

async function loadMap() {
  // where the first paint's time goes: the page before the map was asked for (index.html asks at once), the
  // server's answer, the download, the scripts still loading after it, JSON.parse, cytoscape's elements, its render
  const early = window.ibtwinEarly;
  const t0 = early.t0;
  const r = await early.map;
  if (!r.ok) { throw new Error('map: ' + r.status); }
  const text = await r.text();
  const t2 = performance.now();
  const timing = performance.getEntriesByName(new URL('/api/' + early.path, location.href).href)[0];
  const t1 = timing && timing.responseStart > 0 ? timing.responseStart : t2;
  const arrived = timing && timing.responseEnd > 0 ? timing.responseEnd : t2;
  const g = JSON.parse(text);
  const t3 = performance.now();
  // a big fabric: straight (haystack) edges, hidden while panning, one pixel a CSS pixel: it stays responsive
  const cy = ibtwin.cy = makeMap($('cy'), g);
  const t4 = performance.now();
  ibtwin.expanded = cy.expanded;
  ibtwin.bundled = g.bundled;
  ibtwin.mapCounts = g.counts || null;
  cy.pods = new Map();
  cy.one('render', () => {
    const t5 = performance.now();
    ibtwin.timings = { before: t0, answer: t1 - t0, download: arrived - t1, scripts: t2 - arrived, parse: t3 - t2, elements: t4 - t3, render: t5 - t4,
      bytes: text.length, nodes: g.nodes.length, edges: g.edges.length };
    ibtwin.firstPaint = t5 - t0;
  });
  cy.on('tap', 'node, edge', (e) => details(e.target));
  cy.on('dbltap', 'node[kind="rack"]', (e) => expand(e.target.id()));
  cy.on('dbltap', 'node[kind="pod"]', (e) => unfoldPod(e.target.data('pod')));
  summary();
  ibtwin.ready = true;
}

/** Tiers top to bottom: the top tier's switches as the roots of cytoscape's breadth-first layout. */
function layout(cy) {
  if (cy.nodes('[?preset]').length) {   // a big fabric: the server placed it, tier by tier
    cy.fit(undefined, 20);
    return;
  }
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
  let switches = cy.nodes('[kind="switch"]').length;
  const racks = cy.nodes('[kind="rack"]');
  let rackCount = racks.length;
  let hosts = 0;
  racks.forEach((r) => { hosts += r.data('hosts'); });
  let health = {};
  cy.edges('[kind="link"]').forEach((e) => { health[e.data('health')] = (health[e.data('health')] || 0) + 1; });
  const pods = ibtwin.mapCounts;   // a big fabric opened as pods: the server counted what they hold, link by link
  if (pods) { switches = pods.switches; rackCount = pods.racks; hosts = pods.hosts; health = pods.health || {}; }
  $('map-summary').textContent = `${switches} switches, ${rackCount} racks (${hosts} hosts)` +
    (pods ? ` in ${cy.nodes('[kind="pod"][tier="host"]').length + cy.pods.size} pods (double-click one to unfold it)` : '') +
    Object.entries(health).filter(([k, v]) => k !== 'ok' && v > 0).map(([k, v]) => `, ${v} ${k}`).join('');
  ibtwin.counts = { switches, racks: rackCount, hosts };
}

/** Unfolds pod {@code p} of a big fabric's map: its switches and racks where its nodes were, its links. */
async function unfoldPod(p, cy = ibtwin.cy) {
  if (p === undefined || p === null || !cy.pods || cy.pods.has(p)) { return; }
  cy.pods.set(p, null);
  const t0 = performance.now();
  const g = await api('map/pod?id=P' + p);
  cy.one('render', () => { ibtwin.lastUnfold = { ms: performance.now() - t0, nodes: g.nodes.length, edges: g.edges.length }; });
  g.nodes.forEach((n) => { n.data.preset = true; });
  cy.batch(() => {
    cy.pods.set(p, cy.remove(cy.nodes('[kind="pod"]').filter((n) => n.data('pod') === p)));
    cy.add(g.nodes);
    cy.add(g.edges.filter((e) => cy.getElementById(e.data.source).length && cy.getElementById(e.data.target).length));
  });
  cy.animate({ fit: { eles: cy.nodes().filter((n) => n.data('pod') === p), padding: 30 } }, { duration: 300 });
  summary();
}

/** Folds the unfolded pods back into their nodes. */
function foldPods(cy = ibtwin.cy) {
  if (!cy.pods) { return; }
  cy.pods.forEach((removed, p) => {
    cy.remove(cy.nodes().filter((n) => n.data('pod') === p));
    if (removed) { removed.restore(); }
  });
  cy.pods.clear();
  cy.expanded.forEach((id) => { if (!cy.getElementById(id).length) { cy.expanded.delete(id); } });
}

async function expand(rackId, cy = ibtwin.cy) {
  const rack = cy.getElementById(rackId);
  if (!rack.length || cy.expanded.has(rackId)) { return; }
  cy.expanded.add(rackId);
  const g = await api('map/rack?id=' + encodeURIComponent(rackId));
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
  foldPods(cy);
  summary();
}

/** Selects a map element by id (unfolding the rack of a host or a host's link first) and shows its details. */
async function focus(id) {
  const cy = ibtwin.cy;
  if (!cy) { return; }
  let el = cy.getElementById(id);
  if (!el.length && cy.pods) {   // a big fabric's pods: unfold the pods of the node or of the link's ends
    const ends = id.startsWith('L') ? await api('link?id=' + encodeURIComponent(id)).then((l) => [l.link.aNode, l.link.bNode]).catch(() => [])
      : id.startsWith('N') ? [id] : [];
    for (const n of ends) {
      if (cy.getElementById(n).length) { continue; }
      const d = await api('node?id=' + encodeURIComponent(n)).catch(() => null);
      if (d && d.pod) { await unfoldPod(Number(d.pod.substring(1)), cy); }
    }
    el = cy.getElementById(id);
  }
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
  } else if (el.isEdge() && d.count && !d.links) {
    box.innerHTML = `<h3>${esc(d.count)} links</h3><p>worst: <span class="h-${d.health}">${esc(d.health)}</span>, ` +
      `${esc(d.lanes)} lanes in all. Double-click a pod to unfold its switches and their links.</p>`;
  } else if (el.isEdge() && d.links) {
    box.innerHTML = `<h3>${esc(d.label)}</h3><p>${esc(d.health)}</p><ul>` + d.links.map((id) =>
      `<li><a href="#map/focus=${encodeURIComponent(id)}">${esc(id)}</a></li>`).join('') + '</ul>';
  } else if (el.isEdge()) {
    box.innerHTML = `<h3>host links of ${esc(ibtwin.cy.getElementById(d.source).data('label'))}</h3>` +
      `<p>worst: ${esc(d.health)}. Double-click the rack to unfold its hosts.</p>`;
  } else if (d.kind === 'pod' || d.kind === 'group') {
    box.innerHTML = `<h3>${esc(d.label)}</h3>` + (d.kind === 'pod' ? (d.health ? `<p>worst host link: ` +
      `<span class="h-${d.health}">${esc(d.health)}</span></p>` : '') + `<button id="pod-unfold">unfold pod ${d.pod + 1}</button>`
      : '<p>The top tier\'s switches that reach the same pods. Unfold a pod to see the links of its switches to them.</p>');
    if (d.kind === 'pod') { $('pod-unfold').onclick = () => unfoldPod(d.pod); }
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
  const g = await api(mapPath());
  ibtwin.mapCounts = g.counts || null;
  cy.batch(() => {
    g.nodes.concat(g.edges).forEach((e) => {
      const el = cy.getElementById(e.data.id);
      if (el.length && e.data.health) { el.data('health', e.data.health); }
    });
  });
  for (const p of cy.pods ? cy.pods.keys() : []) {
    const r = await api('map/pod?id=P' + p);
    cy.batch(() => r.nodes.concat(r.edges).forEach((e) => { const el = cy.getElementById(e.data.id); if (el.length && e.data.health) { el.data('health', e.data.health); } }));
  }
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
    if (e.kind === 'link' && !ibtwin.cy) { ibtwin.healthMissed = true; }
    if (e.kind === 'link' && ibtwin.cy) {
      const el = ibtwin.cy.getElementById(e.target);
      if (el.length) { el.data('health', e.data.health); summary(); }
      clearTimeout(healthTimer);
      healthTimer = setTimeout(refreshHealth, 100);
    }
  };
  ['link', 'sweep', 'console', 'source', 'traffic', 'sm', 'what-if'].forEach((k) => es.addEventListener(k, on));
}

// ------------------------------------------------------------------------------------------------ traffic
let bars = null;
let history = null;
const portCharts = {};
let trafficTimer = null;
/** Each tier's figures written over its bar: transmitted, and congested when any. */
function barValues(u) {
  const ctx = u.ctx;
  const [x, tx, cong] = u.data;
  ctx.save();
  ctx.font = `bold ${Math.round(12 * devicePixelRatio)}px sans-serif`;
  ctx.textAlign = 'center';
  x.forEach((xi, i) => {
    const px = u.valToPos(xi, 'x', true);
    const top = u.valToPos(Math.max(tx[i], cong[i]), 'y', true);
    ctx.fillStyle = '#2f6fb0';
    ctx.fillText(`${tx[i].toFixed(0)}%`, px, top - 18 * devicePixelRatio);
    if (cong[i] > 0) {
      ctx.fillStyle = '#c04000';
      ctx.fillText(`${cong[i].toFixed(0)}% congested`, px, top - 4 * devicePixelRatio);
    }
  });
  ctx.restore();
}

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
      bars = new uPlot({ width: 560, height: 260, scales: { x: { time: false, range: [-0.5, Math.max(0.5, tiers.length - 0.5)] }, y: { range: [0, 115] } },
        axes: [{ values: (u, vals) => vals.map((v) => (ibtwin.tierNames || [])[v] || '') , incrs: [1] }, { label: '% of capacity' }],
        series: [{}, { label: 'transmitted %', stroke: '#2f6fb0', fill: 'rgba(47,111,176,0.6)', paths: barPaths },
          { label: 'congested %', stroke: '#e06010', fill: 'rgba(224,96,16,0.7)', paths: barPaths }],
        hooks: { draw: [barValues] } }, data, $('tier-bars'));
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
/**
 * The doctor's page: its progress while it examines the fabric (on the server's thread of its own: a big fabric's
 * first examination takes a while), then its last report.
 */
async function loadDoctor() {
  const asked = ibtwin.doctorAsked = (ibtwin.doctorAsked || 0) + 1;
  let st = await api('doctor/status');
  const want = st.version;
  while (!st.ready && st.reportVersion < want) {
    $('doctor-summary').textContent = `The doctor is examining the fabric: ${st.done} of ${st.checks} checks done` +
      (st.check ? ` (${st.check === 'digest' ? 'reading the state' : st.check + ' running'})` : '') +
      (st.reused ? `, ${st.reused} unchanged since the last examination` : '') + '…';
    $('doctor-summary').dataset.progress = 'examining';
    await new Promise((res) => setTimeout(res, 300));
    if (asked !== ibtwin.doctorAsked || !location.hash.startsWith('#doctor')) { return; }
    st = await api('doctor/status');
  }
  const r = await api('doctor?wait=0');
  if (asked !== ibtwin.doctorAsked) { return; }
  delete $('doctor-summary').dataset.progress;
  const s = r.summary;
  $('doctor-summary').textContent = `${r.source}: ${r.shape}. ${s.findings} findings.`;
  $('findings').innerHTML = r.findings.map((f) => `<div class="finding ${esc(f.severity)}" data-id="${esc(f.id)}">` +
    `<span class="fid">${esc(f.id)}</span><b>${esc(f.severity)}</b> ${esc(f.where)}: ${esc(f.title)}` +
    f.targets.map((t) => ` <a class="on-map" href="#map/focus=${encodeURIComponent(t)}">show on map</a>`).join('') +
    `<pre>${f.evidence.map(esc).join('\n')}</pre><p>fix: ${esc(f.fix)}</p></div>`).join('');
}

// ------------------------------------------------------------------------------------------------ what-if
/** Parses the changes box: one change a line, as a --changes file writes it ("pull-cable leaf01/4"). */
function parseChanges(text) {
  return text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l).map((l) => {
    const m = l.match(/^-*([a-z-]+)(?:[\s=]+(.*))?$/);
    return m ? { change: m[1], value: m[2] === undefined ? null : m[2].trim() } : { change: l, value: null };
  });
}

async function loadWhatIfs(id) {
  const w = await api('what-if');
  ibtwin.whatIfs = w;
  $('wi-form').style.display = w.rehearsals ? '' : 'none';
  $('wi-kinds').textContent = w.changes.join(', ');
  $('wi-reports').innerHTML = w.reports.map((r) => `<li data-id="${r.id}"><a href="#what-if/id=${r.id}">#${r.id}</a> ` +
    `${esc(r.changes.join('; '))}: <b class="${r.lost ? 'h-down' : 'h-ok'}">${r.lost} pairs lost</b>, ${r.gained} gained ` +
    `<span class="hint">(${esc(r.origin)}, ${esc(r.time)})</span></li>`).join('') || '<li class="hint">No report yet.</li>';
  const pick = id || (w.reports.length ? w.reports[0].id : null);
  if (pick && pick !== ibtwin.whatIfShown) { await showWhatIf(pick); }
}

async function rehearse(ev) {
  ev.preventDefault();
  const changes = parseChanges($('wi-changes').value);
  $('wi-status').textContent = 'rehearsing on two copies of the fabric ...';
  $('wi-run').disabled = true;
  try {
    const r = await fetch('/api/what-if', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ changes }) });
    const body = await r.json().catch(() => ({ error: 'HTTP ' + r.status }));
    if (!r.ok) { $('wi-status').textContent = 'refused: ' + body.error; return; }
    $('wi-status').textContent = `report #${body.id} ready`;
    ibtwin.whatIfShown = null;
    const hash = '#what-if/id=' + body.id;
    if (location.hash !== hash) {
      location.hash = hash;   // route() shows it, once
    } else {
      await loadWhatIfs(body.id);
    }
  } catch (e) {
    $('wi-status').textContent = 'failed: ' + e;
  } finally {
    $('wi-run').disabled = false;
  }
}

function section(title, rows) {
  return `<h4>${esc(title)}</h4>` + kv(rows);
}

async function showWhatIf(id) {
  const e = await api('what-if/report?id=' + id);
  ibtwin.whatIfShown = id;
  ibtwin.whatIf = e;
  const r = e.report;
  const reach = r.reachability;
  const groups = e.map.groups;
  let h = `<h3 id="wi-title">#${e.id}: ${esc(r.changes.join('; '))}</h3><p class="hint">${esc(r.fabric)} — ${esc(e.origin)}</p>`;
  h += (r.sm_problems || []).map((p) => `<p class="h-down">SM: ${esc(p)}</p>`).join('');
  h += `<p id="wi-summary"><b class="${reach.lost ? 'h-down' : 'h-ok'}">${reach.lost ? 'LOST' : 'lost'}: ${reach.lost.toLocaleString()} of ` +
    `${reach.pairs.toLocaleString()} host pairs</b> (${reach.hosts} hosts; ${reach.talk_before.toLocaleString()} pairs talk before, ` +
    `${reach.talk_after.toLocaleString()} after); gained ${reach.gained.toLocaleString()}</p>`;
  if (groups.length) {
    h += '<table id="wi-groups"><tr><th></th><th>cause</th><th>pairs</th><th>e.g.</th><th>route before / after</th></tr>' +
      groups.map((g, i) => `<tr data-i="${i}" class="wi-group"><td>${g.side}</td><td>${esc(g.cause)}</td><td>${g.pairs.toLocaleString()}</td>` +
        `<td>${esc(g.example)}</td><td><span class="route-b">${esc(g.routeBefore)}</span><br><span class="route-a">${esc(g.routeAfter)}</span></td></tr>`).join('') +
      '</table><p class="hint">Click a row to draw its routes: <span class="route-b">before</span>, <span class="route-a">after</span>, ' +
      '<span class="h-down">what changed</span>, <span class="h-congested">links whose load rises</span>.</p>';
  }
  const p = r.partitions;
  h += section('Partitions', [['ports changing membership', p.ports_changed], ...p.ports.map((l) => ['', l]),
    ...p.ipoib_groups.map((l) => ['IPoIB', l]), ['the SM\'s own port', `${p.sm_port_before} -> ${p.sm_port_after}`]]);
  const sm = r.sm;
  const loop = (b) => (b === undefined ? 'not known' : b ? 'YES' : 'none');
  h += `<div id="wi-sm">` + section('Subnet manager', [['master before', sm.master_before || 'none'], ['master after', sm.master_after || 'none'],
    ['LIDs that change', sm.lids_changed], ...sm.lids.map((l) => ['', l]),
    ['LFT blocks to write', `${sm.lft_blocks_to_write} on ${sm.lft_switches} switches`],
    ['credit loop', `before ${loop(sm.credit_loop_before)}, after ${loop(sm.credit_loop_after)}`]]) + '</div>';
  h += '<h4>Bandwidth</h4><table id="wi-bandwidth"><tr><th>pattern</th><th>aggregate Gb/s</th><th>worst pair Gb/s</th><th>worst pair after</th></tr>' +
    r.bandwidth.map((b) => `<tr><td>${esc(b.pattern)}</td><td>${b.aggregate_Gb_per_sec_before} → ${b.aggregate_Gb_per_sec_after}</td>` +
      `<td>${b.worst_pair_Gb_per_sec_before} → ${b.worst_pair_Gb_per_sec_after}</td><td class="wrap">${esc(b.worst_pair_after || '')}</td></tr>`).join('') + '</table>';
  if (r.links_load_rising.length) {
    h += '<h4>Links whose load rises most</h4><table><tr><th>link</th><th>all-to-all pairs</th><th>shift streams</th></tr>' +
      r.links_load_rising.map((l) => `<tr><td>${esc(l.link)}</td><td>${l.all_to_all_pairs_before} → ${l.all_to_all_pairs_after}</td>` +
        `<td>${l.shift_streams_before} → ${l.shift_streams_after}</td></tr>`).join('') + '</table>';
  }
  h += (r.notes || []).map((n) => `<p class="hint">note: ${esc(n)}</p>`).join('');
  $('wi-report').innerHTML = h;
  document.querySelectorAll('#wi-groups .wi-group').forEach((row) => { row.onclick = () => drawWhatIf(Number(row.dataset.i)); });
  await whatIfMap(e);
  await drawWhatIf(groups.length ? 0 : -1);
}

async function whatIfMap(e) {
  const asked = ibtwin.whatIfAsked = (ibtwin.whatIfAsked || 0) + 1;   // a later report's map replaces this one
  const g = await api('map?pods=0');   // switch by switch: the routes are drawn on the links themselves
  if (asked !== ibtwin.whatIfAsked) { return; }
  if (ibtwin.wcy) { ibtwin.wcy.destroy(); }
  const cy = ibtwin.wcy = makeMap($('wcy'), g);
  for (const r of e.map.racks) {
    await expand(r, cy);
    if (cy.destroyed()) { return; }
  }
  cy.fit(undefined, 20);
  cy.on('tap', 'node, edge', (ev) => { $('wi-picked').textContent = ev.target.data('label') || ev.target.id(); });
}

/** The map element a link id is drawn as: the link, its bundle, or its rack's edge (while the rack is folded). */
function drawn(cy, id) {
  let el = cy.getElementById(id);
  if (el.length) { return el; }
  el = cy.edges().filter((x) => (x.data('links') || []).includes(id));
  return el;
}

async function drawWhatIf(i) {
  const cy = ibtwin.wcy;
  const m = ibtwin.whatIf.map;
  cy.batch(() => {
    cy.elements().removeClass('route-before route-after changed rising end on-route').addClass('dim');
    const mark = (ids, cls) => ids.forEach((id) => {
      const el = drawn(cy, id);
      el.removeClass('dim').addClass(cls);
      if (el.isEdge && el.isEdge()) { el.connectedNodes().removeClass('dim').addClass('on-route'); }
    });
    m.rising.forEach((r) => mark([r.linkId], 'rising'));
    if (i >= 0) {
      const g = m.groups[i];
      mark(g.before, 'route-before');
      mark(g.after, 'route-after');
      g.ends.forEach((id) => cy.getElementById(id).removeClass('dim').addClass('end'));
    }
    mark(m.changed, 'changed');
  });
  ibtwin.whatIfDrawn = i;
  document.querySelectorAll('#wi-groups .wi-group').forEach((row) => row.classList.toggle('picked', Number(row.dataset.i) === i));
  const lit = cy.elements('.route-before, .route-after, .changed, .end');
  cy.fit(lit.length ? lit.union(lit.connectedNodes()) : undefined, 40);
}

// ------------------------------------------------------------------------------------------------ snapshots
async function loadSnapshots() {
  const s = await api('snapshots');
  const opts = s.snapshots.map((x) => `<option value="${esc(x.name)}">${esc(x.name)} — ${esc(x.source)} at ${esc(x.time)} (${x.nodes} nodes, ${x.links} links)</option>`).join('');
  if ($('snap-a').dataset.filled !== String(s.snapshots.length)) {
    $('snap-a').innerHTML = opts;
    $('snap-b').innerHTML = opts;
    if (s.snapshots.length > 1) { $('snap-b').selectedIndex = s.snapshots.length - 1; }
    $('snap-a').dataset.filled = String(s.snapshots.length);
  }
  $('snap-none').style.display = s.snapshots.length ? 'none' : '';
}

async function compareSnapshots(ev) {
  if (ev) { ev.preventDefault(); }
  const a = $('snap-a').value;
  const b = $('snap-b').value;
  const d = await api('snapshots/diff?a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b));
  ibtwin.snapshotDiff = d;
  const c = d.map.counts;
  $('snap-summary').innerHTML = `<b>${esc(a)}</b> → <b>${esc(b)}</b>: ` + ['added', 'gone', 'changed'].map((k) =>
    `<span class="d-${k}">${c[k]} ${k}</span>`).join(', ') + ` on the map, ${c.same} the same` + (d.empty ? ' — no differences' : '');
  $('snap-text').textContent = d.text;
  if (ibtwin.scy) { ibtwin.scy.destroy(); }
  ibtwin.scy = makeMap($('scy'), d.map);
  ibtwin.scy.on('tap', 'node, edge', (e) => { $('snap-picked').textContent = `${e.target.data('label') || e.target.id()}: ${e.target.data('diff')}`; });
}

// ------------------------------------------------------------------------------------------------ start
(async () => {
  // the map was asked for in index.html; the source's name and the events come beside it, nothing waits for them
  api('fabric').then((f) => {
    $('source').textContent = `${f.source}: ${f.shape}`;
    document.title = 'ibtwin: ' + f.source;
  });
  api('events').then((es) => {
    es.forEach((e) => { addEvent(e); if (e.kind === 'link' && !ibtwin.cy) { ibtwin.healthMissed = true; } });
    listen();
  });
  $('page-map').classList.add('shown');
  await loadMap();
  if (ibtwin.healthMissed) { refreshHealth(); }   // a link changed while the map was on its way
  $('map-search').addEventListener('keydown', (e) => { if (e.key === 'Enter') { search(e.target.value); } });
  $('map-fit').onclick = () => ibtwin.cy.fit(undefined, 20);
  $('map-collapse').onclick = collapse;
  $('wi-form').addEventListener('submit', rehearse);
  $('snap-form').addEventListener('submit', compareSnapshots);
  route();
})();

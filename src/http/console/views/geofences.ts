/**
 * The geofences pages: the company's geofences in a table and on a map, and the form that draws one
 * (a polygon or a circle on the map, ./assets/geofence-draw.js) with its name, category, status,
 * description and address. The drawing is kept in the form's fields `location_points` and `center`
 * (JSON, as the API's body has them) and `radius_m`, so a refused form comes back with the drawing.
 */
import type { MapConfig } from '../../../config/map.js';
import { GEOFENCE_STATUSES } from '../../../domain/geofences/service.js';
import type { geofenceWire } from '../../../wire/geofence.js';
import { hidden, html, Html } from '../../plumbing/html.js';
import { consolePage } from './layout.js';
import { control, fieldOfMessage, formErrorBox, notice, type Control, type PageBase } from './forms.js';
import { MAP_STYLES, mapElement } from './map-page.js';

export type WireGeofence = ReturnType<typeof geofenceWire>;

export interface GeofencesView extends PageBase {
  map: MapConfig;
  geofences: WireGeofence[];
  /** Admins and fleet managers who see the whole fleet; a group-limited manager only looks. */
  canManage: boolean;
  notice?: string;
}

/** JSON in a data block: not run (the policy allows no inline script), and unable to close its element. */
const dataBlock = (id: string, value: unknown) =>
  new Html(`<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`);

/** "Circle, 500 m" or "Polygon, 6 points". */
export function shapeText(g: WireGeofence): string {
  if (g.shape === 'circle') {
    const r = g.radius_m ?? 0;
    return `Circle, ${r >= 1000 ? `${(r / 1000).toFixed(1)} km` : `${Math.round(r)} m`} radius`;
  }
  const holes = g.holes.length ? `, ${g.holes.length} hole${g.holes.length === 1 ? '' : 's'}` : '';
  return `Polygon, ${g.location_points.length} points${holes}`;
}

function row(g: WireGeofence, canManage: boolean): Html {
  return html`<tr data-id="${g.id}">
<th scope="row" data-label="Name">${g.name}</th>
<td data-label="Shape">${shapeText(g)}</td>
<td data-label="Category">${g.category ?? html`<span class="muted">—</span>`}</td>
<td data-label="Status"><span class="badge ${g.status}">${g.status}</span></td>
<td class="row-actions">${
    canManage
      ? html`<a href="/console/geofences/${g.id}/edit" aria-label="Edit ${g.name}">Edit</a> <a href="/console/geofences/${g.id}/delete" aria-label="Delete ${g.name}" class="danger-link">Delete</a>`
      : ''
  }</td></tr>`;
}

export function geofencesPage(v: GeofencesView): string {
  const n = v.geofences.length;
  const table = n
    ? html`<div class="table-wrap"><table class="records" aria-describedby="geofence-count">
<thead><tr><th scope="col">Name</th><th scope="col">Shape</th><th scope="col">Category</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.geofences.map((g) => row(g, v.canManage))}</tbody></table></div>`
    : '';
  const body = html`<div class="page-head"><h1>Geofences</h1>${
    v.canManage ? html`<a href="/console/geofences/new" class="button">Draw a geofence</a>` : ''
  }</div>${notice(v.notice)}${
    v.canManage
      ? ''
      : html`<p class="muted">Geofences belong to the whole company: an admin or a fleet manager who sees every vehicle changes them.</p>`
  }<p id="geofence-count" class="muted">${n === 0 ? 'No geofences yet.' : `${n} geofence${n === 1 ? '' : 's'}`}</p>
<div class="geofence-layout">${mapElement(v.map, 'Map of the geofences')}${table}</div>
${dataBlock('geofence-data', { geofences: v.geofences, canManage: v.canManage })}`;
  return consolePage({
    title: 'Geofences',
    section: 'geofences',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: [...MAP_STYLES, 'manage.css'],
    scripts: ['geofences.js'],
  });
}

/** What the form holds, as typed or drawn. */
export type GeofenceValues = Record<(typeof FIELDS)[number], string>;

export const FIELDS = [
  'name',
  'category',
  'status',
  'description',
  'address',
  'shape',
  'location_points',
  'holes',
  'center',
  'radius_m',
] as const;

const DETAILS: Control[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 255 },
  { name: 'category', label: 'Category', maxLength: 255, hint: 'For example: customer, yard, fuel stop' },
  { name: 'status', label: 'Status', kind: 'select', options: GEOFENCE_STATUSES },
  { name: 'address', label: 'Address', maxLength: 255 },
  { name: 'description', label: 'Description', kind: 'textarea', maxLength: 2000 },
];

export function valuesOfGeofence(g: WireGeofence | undefined): GeofenceValues {
  return {
    name: g?.name ?? '',
    category: g?.category ?? '',
    status: g?.status ?? 'active',
    description: g?.description ?? '',
    address: g?.address ?? '',
    shape: g?.shape ?? 'polygon',
    location_points: g?.shape === 'polygon' ? JSON.stringify(g.location_points) : '',
    holes: g?.holes.length ? JSON.stringify(g.holes) : '',
    center: g?.center ? JSON.stringify(g.center) : '',
    radius_m: g?.radius_m !== null && g?.radius_m !== undefined ? String(g.radius_m) : '',
  };
}

export interface GeofenceFormView extends PageBase {
  map: MapConfig;
  /** The geofence being edited; none on the new form. */
  geofence?: WireGeofence;
  values: GeofenceValues;
  error?: string;
}

/** The drawing: the shape, the tools, the map, the radius, and the drawn points as the API takes them. */
function drawing(v: GeofenceFormView): Html {
  const shape = v.values.shape === 'circle' ? 'circle' : 'polygon';
  const radio = (value: string, label: string) =>
    html`<label class="check"><input type="radio" name="shape" value="${value}"${value === shape ? html` checked` : ''}> ${label}</label>`;
  const geometryError = ['location_points', 'center', 'radius_m', 'holes'].includes(fieldOfMessage(v.error ?? ''));
  return html`<fieldset class="form-field wide drawing-field"${geometryError ? html` aria-describedby="form-error"` : ''}><legend>Shape</legend>
<div class="shape-choice">${radio('polygon', 'Polygon')}${radio('circle', 'Circle')}</div>
<p id="draw-help" class="hint" aria-live="polite">Click the map to add the polygon's points in order; drag a point to move it.</p>
<div class="draw-tools" role="toolbar" aria-label="Drawing tools">
<button type="button" class="secondary" data-draw="here">Add a point at the centre</button>
<button type="button" class="secondary" data-draw="undo">Undo last point</button>
<button type="button" class="secondary" data-draw="clear">Clear</button></div>
${mapElement(v.map, 'Map for drawing the geofence', html` data-draw-map`)}
<div class="form-field radius-field"><label for="radius_m">Radius (metres)</label><input type="text" inputmode="decimal" id="radius_m" name="radius_m" value="${v.values.radius_m}"></div>
${hidden('location_points', v.values.location_points)}${hidden('holes', v.values.holes)}${hidden('center', v.values.center)}
<p class="muted" id="draw-summary" role="status"></p></fieldset>`;
}

export function geofenceFormPage(v: GeofenceFormView): string {
  const g = v.geofence;
  const title = g ? `Geofence ${g.name}` : 'Draw a geofence';
  const error = v.error ? { message: v.error, id: 'form-error' } : undefined;
  const box = formErrorBox(error);
  const action = g ? `/console/geofences/${g.id}` : '/console/geofences';
  const body = html`<p class="crumbs"><a href="/console/geofences">Geofences</a></p><h1>${title}</h1>
<form method="post" action="${action}" class="record-form geofence-form" aria-label="${title}">
${hidden('csrf_token', v.csrf)}${box}
<div class="form-grid">${DETAILS.map((c) => control(c, v.values[c.name as keyof GeofenceValues] ?? '', error))}</div>
${drawing(v)}
<div class="actions"><button type="submit">${g ? 'Save changes' : 'Create geofence'}</button>
<a href="/console/geofences" class="button secondary">Cancel</a>${
    g ? html` <a href="/console/geofences/${g.id}/delete" class="button danger">Delete…</a>` : ''
  }</div></form>`;
  return consolePage({
    title,
    section: 'geofences',
    user: v.user,
    csrf: v.csrf,
    body,
    styles: [...MAP_STYLES, 'manage.css'],
    scripts: ['geofences.js'],
  });
}

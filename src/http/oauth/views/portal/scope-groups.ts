/**
 * The scope picker's groups. A scope's area is the part of its name before the dot (`hos_logs.logs` →
 * `hos_logs`); areas that a developer thinks of together share one group (the HOS logs and driving
 * periods; IFTA reports, fuel purchases and fuel-card transactions …). An area missing from the table
 * gets a group of its own, named after it, so a scope added to the catalogue always appears.
 */
import { SCOPES, type Scope } from '../../../../auth/scopes.js';
import { badRequest } from '../../../../core/errors.js';

/** Group key, its heading, and the areas (scope-name prefixes) it holds, in the order the page lists them. */
const GROUPS: Array<[string, string, string[]]> = [
  ['company', 'Company and webhooks', ['companies', 'company_webhooks']],
  ['users', 'Users and groups', ['users', 'groups']],
  ['vehicles', 'Vehicles and devices', ['vehicles', 'eld_devices', 'fault_codes', 'camera_connections']],
  ['assets', 'Assets', ['assets']],
  ['locations', 'Locations', ['locations']],
  ['hos', 'Hours of service', ['hos_logs', 'driving_periods']],
  ['ifta', 'IFTA and fuel', ['ifta_reports', 'fuel_purchases', 'motive_card_transactions']],
  ['utilization', 'Utilization and idling', ['utilization']],
  ['safety', 'Safety', ['driver_performance_events', 'scorecard_summary', 'speeding_events']],
  ['dispatch', 'Dispatches and forms', ['dispatches', 'dispatch_locations', 'forms', 'form_entries']],
  ['messages', 'Messages and documents', ['messages', 'documents']],
  ['inspections', 'Inspection reports', ['inspection_reports']],
  ['geofences', 'Geofences', ['geofences', 'geofence_events']],
  [
    'freight',
    'Freight visibility',
    ['freight_visibility', 'freight_visibility_vehicle_locations', 'freight_visibility_asset_locations'],
  ],
];

const GROUP_OF_AREA = new Map(GROUPS.flatMap(([key, , areas]) => areas.map((a) => [a, key] as const)));

export interface ScopeGroup {
  key: string;
  label: string;
  scopes: Scope[];
}

/** The area of a scope: its name before the dot. */
export const scopeArea = (scope: string) => scope.split('.')[0];

function build(): ScopeGroup[] {
  const groups = new Map<string, ScopeGroup>(GROUPS.map(([key, label]) => [key, { key, label, scopes: [] }]));
  for (const scope of Object.keys(SCOPES) as Scope[]) {
    const area = scopeArea(scope);
    const key = GROUP_OF_AREA.get(area) ?? area;
    let g = groups.get(key);
    if (!g)
      groups.set(key, (g = { key, label: area.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()), scopes: [] }));
    g.scopes.push(scope);
  }
  return [...groups.values()].filter((g) => g.scopes.length > 0);
}

/** Every scope of the catalogue in exactly one group, groups in page order, scopes in catalogue order. */
export const SCOPE_GROUPS: readonly ScopeGroup[] = build();

/**
 * The scopes a registration form asks for: the boxes ticked one by one plus every scope of each group
 * whose "all" box is ticked (which is how select-all works without script). An unknown group is refused.
 */
export function withScopeGroups(scopes: string[], groups: string[]): string[] {
  const out = [...scopes];
  for (const key of groups) {
    const g = SCOPE_GROUPS.find((x) => x.key === key);
    if (!g)
      throw badRequest(`unknown scope group "${key}"; the groups are ${SCOPE_GROUPS.map((x) => x.key).join(', ')}`);
    for (const s of g.scopes) if (!out.includes(s)) out.push(s);
  }
  return out;
}

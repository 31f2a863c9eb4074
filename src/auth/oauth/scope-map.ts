/**
 * The scope map: the scope every endpoint of the specification needs, including endpoints of areas not
 * built yet. A GET needs the area's read scope and any other method its write (`.manage`) scope, with
 * the specification's special names (`hos_logs.*`, `locations.*`, `ifta_reports.*`, `utilization.*`,
 * `freight_visibility_*`). Routes declare their scope in `config.scope`; a test keeps every registered
 * route in step with this table, and docs/scopes.md is generated from it.
 */
import type { Scope } from '../scopes.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointScope {
  method: Method;
  /** Fastify path syntax; parameter names do not matter when matching (`:id` ≡ `:vehicle_id`). */
  path: string;
  scope: Scope;
}

type Row = [Method, string, Scope];

/** One row per endpoint: method, path, scope. */
const rows: Row[] = [
  // Drivers and fleet managers
  ['GET', '/v1/users', 'users.read'],
  ['GET', '/v1/users/:id', 'users.read'],
  ['GET', '/v1/users/lookup', 'users.read'],
  ['POST', '/v1/users', 'users.manage'],
  ['PUT', '/v1/users/:id', 'users.manage'],
  // Vehicles
  ['GET', '/v1/vehicles', 'vehicles.read'],
  ['GET', '/v1/vehicles/:id', 'vehicles.read'],
  ['POST', '/v1/vehicles', 'vehicles.manage'],
  ['PUT', '/v1/vehicles/:id', 'vehicles.manage'],
  // Messages
  ['GET', '/v1/messages', 'messages.read'],
  ['POST', '/v1/messages', 'messages.manage'],
  ['PUT', '/v1/messages', 'messages.manage'],
  // Fuel purchases
  ['GET', '/v1/fuel_purchases', 'fuel_purchases.read'],
  ['GET', '/v1/fuel_purchases/:id', 'fuel_purchases.read'],
  ['POST', '/v1/fuel_purchases', 'fuel_purchases.manage'],
  ['PUT', '/v1/fuel_purchases/:id', 'fuel_purchases.manage'],
  ['DELETE', '/v1/fuel_purchases/:id', 'fuel_purchases.manage'],
  // Groups and their members
  ['GET', '/v1/groups', 'groups.read'],
  ['POST', '/v1/groups', 'groups.manage'],
  ['GET', '/v1/groups/:id', 'groups.read'],
  ['PUT', '/v1/groups/:id', 'groups.manage'],
  ['DELETE', '/v1/groups/:id', 'groups.manage'],
  ['GET', '/v1/groups/:id/users', 'groups.read'],
  ['GET', '/v1/groups/:id/drivers', 'groups.read'],
  ['GET', '/v1/groups/:id/fleet_managers', 'groups.read'],
  ['GET', '/v1/groups/:id/vehicles', 'groups.read'],
  ['POST', '/v1/groups/:id/users', 'groups.manage'],
  ['POST', '/v1/groups/:id/vehicles', 'groups.manage'],
  ['DELETE', '/v1/groups/:id/users', 'groups.manage'],
  ['DELETE', '/v1/groups/:id/vehicles', 'groups.manage'],
  // Dispatch locations and dispatches
  ['GET', '/v1/dispatch_locations', 'dispatch_locations.read'],
  ['POST', '/v1/dispatch_locations', 'dispatch_locations.manage'],
  ['PUT', '/v1/dispatch_locations', 'dispatch_locations.manage'],
  ['DELETE', '/v1/dispatch_locations', 'dispatch_locations.manage'],
  ['GET', '/v1/dispatches', 'dispatches.read'],
  ['POST', '/v1/dispatches', 'dispatches.manage'],
  ['PUT', '/v1/dispatches', 'dispatches.manage'],
  ['GET', '/v2/dispatches', 'dispatches.read'],
  ['POST', '/v2/dispatches', 'dispatches.manage'],
  ['PUT', '/v2/dispatches', 'dispatches.manage'],
  // Dispatch forms and form entries
  ['GET', '/v1/forms', 'forms.read'],
  ['GET', '/v1/form_entries', 'form_entries.read'],
  ['GET', '/v2/form_entries', 'form_entries.read'],
  // Geofences and geofence events
  ['GET', '/v1/geofences', 'geofences.read'],
  ['POST', '/v1/geofences', 'geofences.manage'],
  ['POST', '/v1/geofences/circular', 'geofences.manage'],
  ['GET', '/v1/geofences/:id', 'geofences.read'],
  ['PUT', '/v1/geofences/:id', 'geofences.manage'],
  ['DELETE', '/v1/geofences/:id', 'geofences.manage'],
  ['GET', '/v1/geofences/events', 'geofence_events.read'],
  // Documents
  ['GET', '/v1/documents', 'documents.read'],
  ['GET', '/v1/documents/:id', 'documents.read'],
  ['POST', '/v1/documents', 'documents.manage'],
  ['PUT', '/v1/documents/:id', 'documents.manage'],
  ['DELETE', '/v1/documents/:id', 'documents.manage'],
  ['PUT', '/v2/documents/:id', 'documents.manage'],
  // Freight visibility
  ['GET', '/v1/freight_visibility/vehicle_locations', 'freight_visibility_vehicle_locations.read'],
  ['POST', '/v1/freight_visibility/subscribe', 'freight_visibility_vehicle_locations.manage'],
  ['PUT', '/v1/freight_visibility/subscribe', 'freight_visibility_vehicle_locations.manage'],
  ['GET', '/v1/freight_visibility/companies', 'freight_visibility_vehicle_locations.read'],
  ['GET', '/v1/freight_visibility/vehicle_association', 'freight_visibility_vehicle_locations.read'],
  ['GET', '/v1/freight_visibility/vehicle_subscriptions', 'freight_visibility_vehicle_locations.read'],
  // Read-only areas
  ['GET', '/v1/eld_devices', 'eld_devices.read'],
  ['GET', '/v1/inspection_reports', 'inspection_reports.read'],
  ['GET', '/v1/inspection_reports/lookup_by_external_id', 'inspection_reports.read'],
  ['GET', '/v1/fault_codes', 'fault_codes.read'],
  ['GET', '/v1/driver_performance_events', 'driver_performance_events.read'],
  ['GET', '/v1/safety_events/:id', 'driver_performance_events.read'],
  ['GET', '/v1/speeding_events', 'speeding_events.read'],
  ['GET', '/v1/scorecard_summary', 'scorecard_summary.read'],
  ['GET', '/v1/available_time', 'hos_logs.available_time'],
  ['GET', '/v1/hours_of_service', 'hos_logs.hours_of_service'],
  ['GET', '/v1/hos_violations', 'hos_logs.hos_violation'],
  ['GET', '/v1/logs', 'hos_logs.logs'],
  ['GET', '/v1/driving_periods', 'driving_periods.read'],
  ['GET', '/v1/vehicle_locations', 'locations.vehicle_locations_list'],
  ['GET', '/v2/vehicle_locations', 'locations.vehicle_locations_list'],
  ['GET', '/v3/vehicle_locations', 'locations.vehicle_locations_list'],
  ['GET', '/v1/vehicle_locations/:id', 'locations.vehicle_locations_single'],
  ['GET', '/v3/vehicle_locations/:id', 'locations.vehicle_locations_single'],
  ['GET', '/v1/driver_locations', 'locations.driver_locations'],
  ['GET', '/v1/ifta/trips', 'ifta_reports.trips'],
  ['GET', '/v1/ifta/summary', 'ifta_reports.summary'],
  // IFTA beyond the real API (docs/ifta.md)
  ['GET', '/v1/ifta/quarterly_report', 'ifta_reports.summary'],
  ['GET', '/v1/ifta/odometer_calibrations', 'vehicles.read'],
  ['POST', '/v1/ifta/odometer_calibrations', 'vehicles.manage'],
  ['DELETE', '/v1/ifta/odometer_calibrations/:id', 'vehicles.manage'],
  ['GET', '/v1/driver_utilization', 'utilization.driver_utilization'],
  ['GET', '/v2/driver_utilization', 'utilization.driver_utilization'],
  ['GET', '/v1/vehicle_utilization', 'utilization.vehicle_utilization'],
  ['GET', '/v2/vehicle_utilization', 'utilization.vehicle_utilization'],
  ['GET', '/v1/idle_events', 'utilization.idle_events'],
  ['GET', '/v1/companies', 'companies.read'],
  // Assets and asset locations
  ['GET', '/v1/assets', 'assets.read'],
  ['GET', '/v1/assets/lookup_by_external_id', 'assets.read'],
  ['POST', '/v1/assets', 'assets.manage'],
  ['GET', '/v1/asset_locations', 'locations.asset_locations'],
  ['GET', '/v1/asset_locations/:id', 'locations.asset_locations'],
  ['GET', '/v2/asset_locations/:id', 'locations.asset_locations'],
  // Webhooks (docs/reference/wire.md §7)
  ['GET', '/v1/company_webhooks', 'company_webhooks.read'],
  ['GET', '/v1/company_webhooks/:id', 'company_webhooks.read'],
  ['POST', '/v1/company_webhooks', 'company_webhooks.manage'],
  ['PUT', '/v1/company_webhooks/:id', 'company_webhooks.manage'],
  ['DELETE', '/v1/company_webhooks/:id', 'company_webhooks.manage'],
  ['GET', '/v1/company_webhook_requests', 'company_webhooks.read'],
  ['POST', '/v1/company_webhook_requests/retry', 'company_webhooks.manage'],
];

export const SCOPE_MAP: readonly EndpointScope[] = rows.map(([method, path, scope]) => ({ method, path, scope }));

/** Scope names that are not published: chosen here for areas the specification gives no scope name. */
export const CHOSEN_SCOPES: readonly Scope[] = [
  'company_webhooks.read',
  'assets.manage',
  'geofences.read',
  'geofences.manage',
  'documents.manage',
];

/** `/v1/groups/:group_id/users` → `/v1/groups/:/users`, so parameter names do not matter. */
export const pathKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ':')}`;

const byKey = new Map(SCOPE_MAP.map((e) => [pathKey(e.method, e.path), e]));

export function mappedScope(method: string, path: string): Scope | undefined {
  return byKey.get(pathKey(method, path))?.scope;
}

/**
 * Why a declared scope breaks the method rule, or null: a GET must not need a write scope, and any
 * other method must not be satisfied by a read scope.
 */
export function methodRuleProblem(method: string, scope: string): string | null {
  if (method === 'GET' && scope.endsWith('.manage')) return `a GET needs a read scope, not ${scope}`;
  if (method !== 'GET' && scope.endsWith('.read')) return `a ${method} needs a write scope, not ${scope}`;
  return null;
}

import type { RouteModule } from './api.js';
import { companiesRoutes } from './v1/companies.js';
import { usersRoutes } from './v1/users.js';
import { vehiclesRoutes } from './v1/vehicles.js';
import { groupsRoutes } from './v1/groups.js';

/** Every API route module. An area adds its module here and nothing else. */
export const routeModules: RouteModule[] = [companiesRoutes, usersRoutes, vehiclesRoutes, groupsRoutes];

import type { RouteModule } from './api.js';
import { usersRoutes } from './v1/users.js';
import { vehiclesRoutes } from './v1/vehicles.js';

/** Every API route module. An area adds its module here and nothing else. */
export const routeModules: RouteModule[] = [usersRoutes, vehiclesRoutes];

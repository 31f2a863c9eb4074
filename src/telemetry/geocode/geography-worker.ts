/**
 * The thread ./warm.ts starts: builds the IFTA jurisdiction grid and the place index, and hands both
 * back as typed arrays moved, not copied, to the thread that asked.
 */
import { parentPort } from 'node:worker_threads';
import { buildGrid } from '../../domain/ifta/grid-build.js';
import { GRID_CELL_DEG, loadShapes } from '../../domain/ifta/boundaries.js';
import { buildPlaces } from './places.js';

const grid = buildGrid(loadShapes(), GRID_CELL_DEG);
const places = buildPlaces();
const buffers = [grid.cells, grid.slotStart, grid.slotEdges, grid.ax, grid.ay, grid.bx, grid.by, grid.owner].map(
  (a) => a.buffer,
);
parentPort!.postMessage({ grid, places }, [...new Set([...buffers, places.index])] as ArrayBuffer[]);

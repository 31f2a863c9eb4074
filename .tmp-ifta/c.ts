import { jurisdictionAt } from '../src/domain/ifta/boundaries.ts';
const s = new Set(); for (let lon = -77.06; lon <= -76.96; lon += 0.001) s.add(jurisdictionAt(38.9, lon)); console.log([...s]);

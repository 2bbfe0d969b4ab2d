/** Rewrites examples/ from their definitions: `npm run examples`. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLES } from './examples.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');
for (const [name, make] of Object.entries(EXAMPLES)) fs.writeFileSync(path.join(dir, name), make());

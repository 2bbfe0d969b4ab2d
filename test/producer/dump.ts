/**
 * Writes scenario streams: `node --import=@tapjs/typescript/import test/producer/dump.ts NAME...`
 * (all of them, concatenated, without a name; `--list` lists the names).
 */
import { SCENARIOS } from './scenarios.js';

const names = process.argv.slice(2);
if (names.includes('--list')) for (const s of SCENARIOS) process.stdout.write(`${s.name}\t${s.about}\n`);
else for (const s of SCENARIOS) if (names.length === 0 || names.includes(s.name)) process.stdout.write(s.text);

#!/usr/bin/env node
import { isMain, settleProcess, type RunOptions } from '../lib/cli/index.js';
import { umbrellaMain } from '../lib/cli/umbrella.js';
import { spec as accumulate } from './wuu-accumulate.js';
import { spec as check } from './wuu-check.js';
import { spec as filter } from './wuu-filter.js';
import { spec as importer } from './wuu-import.js';
import { spec as pretty } from './wuu-pretty.js';
import { spec as redact } from './wuu-redact.js';
import { spec as result } from './wuu-result.js';
import { spec as turns } from './wuu-turns.js';
import { spec as usage } from './wuu-usage.js';

/** Every tool, in the order `wuu-stream` lists them. */
export const tools = [filter, accumulate, turns, redact, usage, result, check, pretty, importer];

/** Runs the umbrella with injected I/O (what tests and embedders call). */
export function main(options: RunOptions): Promise<number> {
  return umbrellaMain(tools, options);
}

if (isMain(import.meta.url)) settleProcess('wuu-stream', umbrellaMain(tools, { handleSignals: true }));

/**
 * `node --import` entry: registers test/loader/hooks.mjs (TypeScript through
 * esbuild). package.json "tap" names it for every test process, and Node
 * runs it again in every worker thread they start.
 */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

#!/usr/bin/env node
import fs from 'node:fs';
import { DEFAULT_MAX_LINE_BYTES } from '../lib/jsonl.js';
import { expandInput, runIfMain, UsageError, type ToolSpec } from '../lib/runner.js';
import { createUsage, defaultJobs, parsePricing, USAGE_BY, usageMerge, usageParallel, type UsageBy, type UsageFormat } from '../lib/usage.js';

export const spec: ToolSpec = {
  name: 'wuu-usage',
  summary: 'exact token usage per turn, run, model, file or day, with subagents apart',
  usage: `Usage: wuu-usage [OPTION]... [FILE|DIR]...
       wuu-usage --merge [OPTION]... PART.json...
Sum the token usage of one run or thousands: the last usage_updated snapshot
of each turn (turn_completed only when a turn has none), the last report of
each subagent, counted once per turn (thread_id + turn_id) and per subagent
(thread_id + agent_id) however often they appear. Subagents get rows and a
total of their own; they are never added to the main agent's.

input_tokens includes the cached tokens, so
  CACHE_HIT      = cache_read_tokens / input_tokens
  uncached input = input_tokens - cache_creation_tokens - cache_read_tokens
and --pricing prices uncached input, output, cache writes and cache reads.

Anomalies are warnings on stderr (FILE:LINE: warning: ...) and do not change
the exit status: a snapshot that goes down, a turn with usage but no end, a
stream without result (killed run), a turn seen twice.

Options:
      --by KEY           group rows by turn, run (default), model, file or day
                         (day: UTC, from a timestamp/ts/time field, else the
                         file's mtime)
      --json             JSON lines: one per turn and subagent (the mergeable
                         facts), one per row, and a total line
      --csv, --tsv       comma- or tab-separated rows with a header
      --markdown         a Markdown table
                         (default: an aligned text table, on a terminal or not)
      --pricing FILE     JSON {"MODEL": {"input": USD, "output": USD,
                         "cache_write": USD, "cache_read": USD}} per million
                         tokens; adds a cost column ("unknown" for a model
                         without a price, never 0)
  -j, --jobs N           scan files on N worker threads (default: the number
                         of CPUs, at most one per file); results are identical
      --merge            the inputs are --json outputs of wuu-usage: combine
                         them (a turn or subagent in several parts counts once)

Examples:
  wuu-usage examples/run.jsonl
  wuu-usage --by turn --pricing examples/pricing.json examples/
  find runs -name '*.jsonl*' | parallel -n 200 wuu-usage --json > parts.jsonl
  wuu-usage --merge --by model parts.jsonl`,
  flags: {
    string: ['by', 'pricing', 'jobs'],
    values: { by: USAGE_BY },
    boolean: ['json', 'csv', 'tsv', 'markdown', 'merge'],
    alias: { j: 'jobs' },
  },
  create({ flags, positionals, warn }) {
    const formats = (['json', 'csv', 'tsv', 'markdown'] as const).filter((f) => flags.bool(f));
    if (formats.length > 1) throw new UsageError(`--${formats[0]} and --${formats[1]} exclude each other`);
    const format: UsageFormat = formats[0] ?? 'table';
    const by = (flags.string('by') ?? 'run') as UsageBy;
    if (!USAGE_BY.includes(by)) throw new UsageError(`--by takes ${USAGE_BY.join(', ')}, not '${by}'`);
    const jobs = flags.int('jobs', { min: 1, max: 1024 }) ?? defaultJobs();
    let pricing: Map<string, import('../lib/usage.js').Price> | undefined;
    const pricingFile = flags.string('pricing');
    if (pricingFile !== undefined) {
      let text: string;
      try {
        text = fs.readFileSync(pricingFile, 'utf8');
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        throw new UsageError(`--pricing ${pricingFile}: ${e.code === 'ENOENT' ? 'No such file or directory' : e.message}`);
      }
      try {
        pricing = parsePricing(text);
      } catch (err) {
        throw new UsageError(`--pricing ${pricingFile}: ${(err as Error).message}`);
      }
    }
    const policy = {
      maxLineBytes: flags.int('max-line-bytes', { min: 1, size: true }) ?? DEFAULT_MAX_LINE_BYTES,
      strict: flags.bool('strict'),
      passInvalid: flags.bool('pass-invalid'),
    };
    const options = { by, format, pricing, policy, jobs };
    if (flags.bool('merge')) return { main: (io) => usageMerge(positionals, options, io) };
    const files = positionals.length === 0 ? ['-'] : positionals.flatMap(expandInput);
    if (jobs > 1 && files.length > 1 && !files.includes('-')) {
      return { main: (io) => usageParallel(files, options, io) };
    }
    return { core: createUsage({ by, format, pricing, warn }) };
  },
};

runIfMain(spec, import.meta.url);

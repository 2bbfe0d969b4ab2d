#!/usr/bin/env node
import fs from 'node:fs';
import { DEFAULT_MAX_LINE_BYTES } from '../lib/jsonl.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';
import { checkTimeZone, isIsoDate } from '../lib/usage/dates.js';
import { parsePricing, type PriceTable } from '../lib/usage/prices.js';
import { USAGE_DIMS, type UsageDim, type UsageFormat } from '../lib/usage/types.js';
import os from 'node:os';

export const spec: ToolSpec = {
  name: 'wuu-usage',
  summary: 'token usage and cost per turn, run, model, day; subagents apart',
  usage: `Usage: wuu-usage [OPTION]... [FILE|DIR]...
       wuu-usage --merge [OPTION]... PART.json...
Token usage and cost of one run or thousands. Per turn (thread_id + turn_id)
the LAST usage_updated snapshot counts (snapshots are cumulative, never
summed); turn_completed only for a turn with none. Only the root thread is
the main agent: a child thread's turns belong to its subagent, whose usage is
its LAST subagent_* report (cumulative), in rows and totals of its own.

input_tokens EXCLUDES cached tokens (the producer's convention):
  PROMPT    = input_tokens + cache_creation_tokens + cache_read_tokens
  CACHE HIT = cache_read_tokens / PROMPT
Prices: built in (genai-prices, offline) by the provider and model the
stream names (thread_* over session_configured); a model without a price
shows 'unknown' and one warning. Money is summed exactly (1e-15 USD units).

Days (--by day/week/month, --since/--until) come from the run's session id
when it has the producer's YYYYMMDD-HHMMSS-... shape: the producer's wall
clock, read in --timezone (so a run counts on the day its id names), else
the file's modification time (stdin: the time of reading); a timestamp field
of the events (timestamp, ts, time) comes first when there is one. Each row
says which (date_source); the table footnotes it and marks guessed days *.

Options:
      --by KEY[,KEY..]   rows by turn, run (default), thread, model, file,
                         day, week (ISO, YYYY-Www) or month; combine them
                         with commas: --by day,model
      --breakdown        add a row per model under each row
      --since DAY        only usage of days >= DAY (YYYY-MM-DD)
      --until DAY        only usage of days <= DAY (YYYY-MM-DD)
      --timezone ZONE    days in this IANA zone (default: local; e.g. UTC);
                         times without an offset are read in it
      --table            aligned human table (default on a terminal)
      --tsv              tab-separated, exact digits (default otherwise)
      --csv              comma-separated with a header, exact digits
      --json             JSON lines: each turn and subagent (the mergeable
                         facts), each row, a total; exact digits
      --markdown         a Markdown table
      --color WHEN       colour the table: auto (default: on a terminal
                         without NO_COLOR), always, never
      --pricing FILE     JSON {"MODEL": {"input": USD, "output": USD,
                         "cache_write": USD, "cache_read": USD}} per million
                         tokens (input = uncached); overrides built-in prices
      --no-cost          no cost column (no price lookups)
  -j, --jobs N           scan files on N worker threads (default: the CPUs,
                         at most one per file); results are identical
      --merge            the inputs are --json outputs: combine them exactly
                         (a turn or subagent in several parts counts once)
  -q, --quiet            no warnings on stderr (bad lines and unreadable
                         inputs are still reported)

Warnings (FILE:LINE: warning: ...) do not change the exit status: a snapshot
that goes down, odd token values (not counted), a run without result, a
--since/--until window that selects nothing.
SIGINT/SIGTERM/SIGHUP: the totals read so far are printed, then exit 128+N.

Examples:
  wuu-usage examples/
  wuu-usage --by day,model --breakdown --since 2026-01-01 runs/
  mkdir parts; ls runs/*.jsonl | xargs -P4 -n 50 sh -c \\
      'wuu-usage --json "$@" > "$(mktemp parts/XXXXXX.jsonl)"' sh
  wuu-usage --merge parts/`,
  flags: {
    string: ['by', 'pricing', 'jobs', 'color', 'since', 'until', 'timezone'],
    values: { by: USAGE_DIMS, color: ['auto', 'always', 'never'] },
    boolean: ['json', 'csv', 'tsv', 'markdown', 'table', 'merge', 'breakdown', 'cost', 'quiet'],
    negatable: ['cost'],
    defaults: { cost: true },
    alias: { j: 'jobs', q: 'quiet' },
  },
  create({ flags, positionals, stdoutIsTTY, env, warn }) {
    const formats = (['json', 'csv', 'tsv', 'markdown', 'table'] as const).filter((f) => flags.bool(f));
    if (formats.length > 1) throw new UsageError(`--${formats[0]} and --${formats[1]} exclude each other`);
    const format: UsageFormat = formats[0] ?? (stdoutIsTTY ? 'table' : 'tsv');
    const by = (flags.string('by') ?? 'run').split(',').map((s) => s.trim()) as UsageDim[];
    for (const dim of by) if (!USAGE_DIMS.includes(dim)) throw new UsageError(`--by takes ${USAGE_DIMS.join(', ')} (or several, comma-separated), not '${dim}'`);
    const colorFlag = flags.string('color') ?? 'auto';
    if (!['auto', 'always', 'never'].includes(colorFlag)) throw new UsageError(`--color takes auto, always or never, not '${colorFlag}'`);
    const color = colorFlag === 'always' || (colorFlag === 'auto' && stdoutIsTTY && !env.NO_COLOR && env.TERM !== 'dumb');
    const since = flags.string('since');
    const until = flags.string('until');
    for (const [name, value] of [['since', since], ['until', until]] as const) {
      if (value !== undefined && !isIsoDate(value)) throw new UsageError(`--${name} takes a date YYYY-MM-DD, not '${value}'`);
    }
    if (since !== undefined && until !== undefined && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
    const timeZone = flags.string('timezone');
    if (timeZone !== undefined) {
      try {
        checkTimeZone(timeZone);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    const jobs = flags.int('jobs', { min: 1, max: 1024 }) ?? os.availableParallelism();
    let pricing: PriceTable | undefined;
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
    const quiet = flags.bool('quiet');
    const options = { by, breakdown: flags.bool('breakdown'), format, color, pricing, noCost: !flags.bool('cost'), timeZone, since, until, warn: quiet ? () => {} : warn };
    const policy = {
      maxLineBytes: flags.int('max-line-bytes', { min: 1, size: true }) ?? DEFAULT_MAX_LINE_BYTES,
      strict: flags.bool('strict'),
      passInvalid: flags.bool('pass-invalid'),
      quiet,
    };
    // The report's modules load only for a run (not for --help or --version).
    if (flags.bool('merge')) return { main: async (io) => (await import('../lib/usage/merge.js')).usageMergeMain(positionals, { ...options, policy }, io) };
    return { main: async (io) => (await import('../lib/usage/parallel.js')).usageMain(positionals, { ...options, policy, jobs }, io) };
  },
};

runIfMain(spec, import.meta.url);

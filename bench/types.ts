/**
 * One benchmark row: our binary against the reference loop for its job (see
 * bench/reference.ts) on the same input, in the same run, runs interleaved
 * (ours, reference, ours, ...), so the ratio holds however busy the machine
 * is. bench/run.ts loads every module in bench/cases/ and runs each case.
 */
export interface BenchCase {
  /** Short name printed in the report, e.g. "filter 'tool_*'". */
  name: string;
  /** Arguments to our binary, e.g. ['wuu-filter', 'tool_*'] (`@reference` runs a reference loop). */
  ours: string[];
  /** The reference loop: arguments to dist/bench/reference.js, or a whole command after `@cmd`. */
  reference?: string[];
  /**
   * The input on stdin: the main stream (default), the stream of 8 MiB lines,
   * nothing, or a file of the case's own (bench/out/NAME.jsonl, written by
   * `write` when missing).
   */
  input?: 'stream' | 'biglines' | 'none' | { name: string; write: (file: string) => void };
  /** The target: our time at most this many times the reference's (median of paired runs). */
  maxRatio?: number;
  /** A jq program doing the same job, run as `jq <jqArgs> < stream`; omitted: no jq column. */
  jqArgs?: string[];
  /**
   * Run jq on only the first N MB of the stream (cut at a line end) and compare
   * throughputs: for jq programs too slow to finish the full stream in a
   * reasonable time (regex walks run at well under 1 MB/s).
   */
  jqSampleMb?: number;
  /** Required speed-up over jq (ours throughput / jq throughput). */
  minRatioVsJq?: number;
  /** Peak RSS limit for our binary, in MiB. */
  maxRssMb?: number;
  /**
   * Other tools doing the same job, run on the same stream in the same run:
   * `command` is run as is, `{stream}` replaced by the stream's path (stdin is
   * the stream too); our time over theirs is printed, with `maxRatio` as target.
   */
  peers?: Array<{ name: string; command: string[]; maxRatio?: number; setup?: () => void }>;
  /** Profile one extra run with `node --cpu-prof` and print its top entries. */
  profile?: boolean;
}

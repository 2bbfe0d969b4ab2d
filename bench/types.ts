/**
 * One benchmark: our binary against the reference loop for its job (see
 * bench/reference.ts) and optionally jq, on the same generated stream, in the
 * same run. bench/run.ts loads every module in bench/cases/ and runs each
 * exported case; ratios are time over time, so they hold however busy the
 * machine is.
 */
export interface BenchCase {
  /** Short name printed in the report, e.g. "filter tool". */
  name: string;
  /** Arguments to our binary, e.g. ['wuu-filter', 'tool']; the stream comes on stdin. */
  ours: string[];
  /** The reference loop: arguments to dist/bench/reference.js (e.g. ['needle', '"type":"tool_']). */
  reference?: string[];
  /** The target: our time at most this many times the reference's. */
  maxRatio?: number;
  /** A jq program doing the same job, run as `jq <jqArgs> < stream`; omitted: no jq column. */
  jqArgs?: string[];
  /**
   * Run jq on only the first N MB of the stream (cut at a line end) and compare
   * throughputs: for jq programs too slow to finish the full stream in a
   * reasonable time (regex walks run at well under 1 MB/s).
   */
  jqSampleMb?: number;
  /** Required speed-up over jq (ours throughput / jq throughput), from the issue. */
  minRatioVsJq?: number;
  /** Peak RSS limit for our binary, in MB, from the issue. */
  maxRssMb?: number;
  /**
   * Other tools doing the same job, run on the same stream in the same run:
   * `command` is run as is, `{stream}` replaced by the stream's path (stdin is
   * the stream too); our time over theirs is printed, with `maxRatio` as target.
   */
  peers?: Array<{ name: string; command: string[]; maxRatio?: number; setup?: () => void }>;
}

/**
 * One benchmark: our binary against jq (and optionally a raw Node loop) on the
 * same generated stream, in the same run. bench/run.ts loads every module in
 * bench/cases/ and runs each exported case.
 */
export interface BenchCase {
  /** Short name printed in the report, e.g. "filter tool". */
  name: string;
  /** Arguments to our binary, e.g. ['wuu-filter', 'tool']; the stream comes on stdin. */
  ours: string[];
  /** A jq program doing the same job, run as `jq <jqArgs> < stream`. */
  jqArgs: string[];
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
   * Largest allowed time relative to the one-regex Node walk loop
   * (bench/node-regex-loop.ts: parse, replace one regex in every string,
   * stringify), measured in the same run (issue 11: 0.5 for wuu-redact).
   */
  maxTimeVsRegexLoop?: number;
}

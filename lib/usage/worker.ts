/**
 * A wuu-usage worker thread: scans the files it is sent, one at a time, with
 * the same code as a serial run (scanFile), and posts back the units and the
 * messages that a serial run would have written.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanFile } from './files.js';
import type { ScanPolicy } from './reader.js';

const policy = workerData as ScanPolicy;
const port = parentPort;
if (port !== null) {
  port.on('message', (job: { index: number; name: string }) => {
    scanFile(job.name, policy).then(
      (result) => port.postMessage({ index: job.index, result }),
      (err: unknown) => port.postMessage({ index: job.index, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
}

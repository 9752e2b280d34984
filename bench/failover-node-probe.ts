// bench/failover --node's HTTP client, run by the bench inside a network namespace of the real node
// (`nsenter --net`): this machine has no route to Pod or Service addresses. One long-running process
// instead of one per read, so that a read every 100 ms costs a pipe round trip, not a process start.
//
//   node failover-node-probe.js
//   stdin:  one request a line   {"id":1,"host":"10.0.0.5","port":5801,"method":"GET","path":"/…","timeoutMs":5000}
//   stdout: one answer a line    {"id":1,"status":200,"body":"…","sent":<epoch ms>,"received":<epoch ms>}
//                                or {"id":1,"error":"…","sent":…,"received":…}
// Requests are answered as they complete (concurrently); it exits when stdin closes.

import * as readline from 'node:readline';
import { httpCall } from './bare-zeta';
import { now } from './e2e-measure';

export interface ProbeRequest {
  readonly id: number;
  readonly host: string;
  readonly port: number;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly timeoutMs: number;
}

export interface ProbeAnswer {
  readonly id: number;
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
  readonly sent: number;
  readonly received: number;
}

const answer = (a: ProbeAnswer) => process.stdout.write(`${JSON.stringify(a)}\n`);

if (require.main === module) {
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const r = JSON.parse(line) as ProbeRequest;
    const sent = now();
    httpCall(r.host, r.port, r.method, r.path, r.body, r.timeoutMs).then(
      (x) => answer({ id: r.id, status: x.status, body: x.body, sent, received: now() }),
      (e: Error) => answer({ id: r.id, error: e.message, sent, received: now() }),
    );
  });
  process.stdin.on('end', () => process.exit(0));
}

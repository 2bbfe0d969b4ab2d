/**
 * A small fake of the Gemini API (generativelanguage `v1beta`) on 127.0.0.1,
 * enough for `gemini -p ... --output-format stream-json` pointed at it with
 * GOOGLE_GEMINI_BASE_URL and a dummy GEMINI_API_KEY. Used only by
 * capture-gemini.ts to record fixtures from the real CLI; CI never starts it.
 *
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`: the next
 *   scripted {@link Reply}, as server-sent events (`data: <json>\r\n\r\n`).
 *   Main-agent and sub-agent calls arrive here in order, so one queue serves
 *   both.
 * - `POST .../<model>:generateContent`: the `auto` router's classifier call
 *   (and any other side call): a JSON answer that satisfies both classifier
 *   schemas the CLI uses, with a small usage block (the CLI counts it in
 *   `result.stats`, which is what a real run does too).
 * - `POST .../<model>:countTokens`: a token count.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One streamed chunk: a GenerateContentResponse as the API sends it. */
export type Chunk = Record<string, unknown>;

/** What one streamGenerateContent call gets. */
export interface Reply {
  /** Chunks sent as SSE events. */
  chunks?: Chunk[];
  /** An HTTP error instead of a stream: status and the API's error body. */
  httpError?: { status: number; body: Record<string, unknown> };
  /** Keep the stream open after the chunks (for an interrupt); `onHold` is called. */
  hold?: boolean;
}

export interface FakeGemini {
  port: number;
  /** Every request seen: method, path and the body's last user text (for debugging a script). */
  log: string[];
  close(): Promise<void>;
}

/** A text chunk of the model. */
export function text(t: string, extra: Chunk = {}): Chunk {
  return { candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }], ...extra };
}

/** A function call chunk (the model asks for a tool). */
export function call(name: string, args: Record<string, unknown>): Chunk {
  return { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, index: 0 }] };
}

/** The closing chunk: finish reason and usage metadata (Gemini counts cached tokens inside promptTokenCount). */
export function done(usage: { prompt: number; output: number; cached?: number; thoughts?: number }, modelVersion = 'gemini-2.5-flash'): Chunk {
  const total = usage.prompt + usage.output + (usage.thoughts ?? 0);
  return {
    candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.prompt,
      candidatesTokenCount: usage.output,
      totalTokenCount: total,
      ...(usage.cached !== undefined ? { cachedContentTokenCount: usage.cached } : {}),
      ...(usage.thoughts !== undefined ? { thoughtsTokenCount: usage.thoughts } : {}),
    },
    modelVersion,
  };
}

function lastUserText(body: string): string {
  try {
    const req = JSON.parse(body) as { contents?: Array<{ role?: string; parts?: Array<Record<string, unknown>> }> };
    const last = req.contents?.[req.contents.length - 1];
    const part = last?.parts?.[last.parts.length - 1];
    return JSON.stringify(part ?? null).slice(0, 160);
  } catch {
    return '(unparsable body)';
  }
}

/** Starts the fake with a queue of replies for streamGenerateContent. */
export function startFakeGemini(replies: Reply[], onHold: () => void = () => {}): Promise<FakeGemini> {
  const queue = replies.slice();
  const log: string[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = req.url ?? '';
      log.push(`${req.method} ${url} ${lastUserText(body)}`);
      if (url.includes(':streamGenerateContent')) {
        const reply = queue.shift();
        if (reply === undefined) {
          // 400 is not retried: a script that runs short fails at once.
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 400, message: 'fake server: no scripted reply left', status: 'FAILED_PRECONDITION' } }));
          return;
        }
        if (reply.httpError) {
          res.writeHead(reply.httpError.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.httpError.body));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of reply.chunks ?? []) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        if (reply.hold) {
          held.push(res);
          onHold();
        } else res.end();
      } else if (url.includes(':generateContent')) {
        const answer = { reasoning: 'fake router', model_choice: 'flash', complexity_reasoning: 'fake router', complexity_score: 10 };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(answer) }] }, finishReason: 'STOP', index: 0 }],
            usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 },
          }),
        );
      } else if (url.includes(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ totalTokens: 10 }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: 'not found', status: 'NOT_FOUND' } }));
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        log,
        close: () =>
          new Promise<void>((done) => {
            for (const res of held) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

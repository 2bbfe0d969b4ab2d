/**
 * A small fake OpenAI Responses API on 127.0.0.1, for capturing real
 * `codex exec --json` streams without a model or a key (used by
 * capture-codex.ts, never by CI).
 *
 * Each POST .../responses takes the next scripted {@link Reply}: an SSE
 * stream (`response.created`, the output items, `response.completed` with
 * usage, the wire shapes of the Responses API), an HTTP error, or a stream
 * that never ends (for interrupts). Every request body is kept so a capture
 * can look at what the CLI sent (tool names, the input it replays on resume).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One model call's usage, as the Responses API reports it. */
export interface FakeUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** A function call the fake model makes. */
export interface FakeCall {
  name: string;
  /** The tool namespace (Codex puts its sub-agent tools in `multi_agent_v1`). */
  namespace?: string;
  /** Arguments as a JSON object (encoded for the wire). */
  args: Record<string, unknown>;
}

/** What the fake model answers to one request. */
export type Reply =
  | { kind: 'answer'; text?: string; reasoning?: string; calls?: FakeCall[]; usage: FakeUsage; textChunks?: number; who?: string }
  | { kind: 'http-error'; status: number; body: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'hang' };

export interface FakeServer {
  url: string;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  /** Replies used so far. */
  used(): number;
  /** The replies served, in order. */
  served: Reply[];
  close(): Promise<void>;
}

function sseEvent(event: Record<string, unknown>): string {
  return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The SSE body of an answer: reasoning, text (in deltas), function calls, completion with usage. */
export function answerEvents(reply: Extract<Reply, { kind: 'answer' }>, n: number): string[] {
  const id = `resp_mock_${n}`;
  const out: string[] = [sseEvent({ type: 'response.created', response: { id } })];
  let index = 0;
  if (reply.reasoning !== undefined) {
    const item = { type: 'reasoning', id: `rs_mock_${n}`, summary: [{ type: 'summary_text', text: reply.reasoning }] };
    out.push(sseEvent({ type: 'response.output_item.done', output_index: index++, item }));
  }
  if (reply.text !== undefined) {
    const msgId = `msg_mock_${n}`;
    const item = { type: 'message', role: 'assistant', id: msgId, status: 'in_progress', content: [] };
    out.push(sseEvent({ type: 'response.output_item.added', output_index: index, item }));
    const pieces = reply.textChunks ?? 3;
    const size = Math.max(1, Math.ceil(reply.text.length / pieces));
    for (let at = 0; at < reply.text.length; at += size) {
      out.push(sseEvent({ type: 'response.output_text.delta', item_id: msgId, output_index: index, content_index: 0, delta: reply.text.slice(at, at + size) }));
    }
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
    out.push(sseEvent({ type: 'response.output_item.done', output_index: index++, item: done }));
  }
  for (const [i, call] of (reply.calls ?? []).entries()) {
    const item = {
      type: 'function_call',
      id: `fc_mock_${n}_${i}`,
      call_id: `call_mock_${n}_${i}`,
      ...(call.namespace ? { namespace: call.namespace } : {}),
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    };
    out.push(sseEvent({ type: 'response.output_item.done', output_index: index++, item }));
  }
  const u = reply.usage;
  out.push(
    sseEvent({
      type: 'response.completed',
      response: {
        id,
        usage: {
          input_tokens: u.input,
          input_tokens_details: { cached_tokens: u.cached },
          output_tokens: u.output,
          output_tokens_details: { reasoning_tokens: u.reasoning },
          total_tokens: u.input + u.output,
        },
      },
    }),
  );
  return out;
}

/** Picks the reply to request number `n` (0-based) from its body. */
export type Script = Reply[] | ((body: Record<string, unknown>, n: number) => Reply);

/**
 * Starts the server with a script of replies: a list taken in order (past its
 * end, the last repeats), or a function of the request (for sub-agents, whose
 * requests race the parent's).
 */
export async function startFakeOpenAI(script: Script): Promise<FakeServer> {
  const requests: FakeServer['requests'] = [];
  const served: Reply[] = [];
  let next = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        body = { unparsed: text.slice(0, 200) };
      }
      const path = req.url ?? '';
      requests.push({ path: `${req.method} ${path}`, body });
      if (req.method !== 'POST' || !path.endsWith('/responses')) {
        // Model lists and the like: an empty, valid answer.
        res.writeHead(path.includes('models') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(path.includes('models') ? '{"object":"list","data":[],"models":[]}' : '{}');
        return;
      }
      const n = next;
      const reply = typeof script === 'function' ? script(body, n) : script[Math.min(next, script.length - 1)]!;
      next++;
      served.push(reply);
      if (reply.kind === 'http-error') {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(reply.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (reply.kind === 'hang') {
        res.write(sseEvent({ type: 'response.created', response: { id: `resp_mock_${n}` } }));
        open.add(res);
        return;
      }
      if (reply.kind === 'failed') {
        res.write(sseEvent({ type: 'response.created', response: { id: `resp_mock_${n}` } }));
        res.end(sseEvent({ type: 'response.failed', response: { id: `resp_mock_${n}`, error: { code: reply.code, message: reply.message } } }));
        return;
      }
      for (const event of answerEvents(reply, n)) res.write(event);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    used: () => next,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

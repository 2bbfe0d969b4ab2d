/**
 * A small fake of the Anthropic Messages API (POST /v1/messages, SSE
 * streaming) on 127.0.0.1, for capturing Claude Code's real stream-json
 * output without a model or a key (test/import/capture-claude.ts). Only the
 * capture script uses it; CI reads the captured fixtures.
 *
 * Each request is answered by the scenario's script from what the request
 * says (the last message, whether it is a tool result, the first user text);
 * every reply streams the Messages API events in their documented order:
 * message_start (usage with input and cache counts, output 1),
 * content_block_start / content_block_delta (text_delta, input_json_delta
 * fragments) / content_block_stop per block, message_delta (stop_reason,
 * final output_tokens), message_stop. Token counts are distinct per call so a
 * test can tell which calls a total contains.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

export interface FakeUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** What the script answers one request with. */
export type FakeReply =
  | {
      blocks: FakeBlock[];
      usage?: Partial<FakeUsage>;
      /** Milliseconds to wait before each streamed chunk (an interrupt needs a slow reply). */
      delayMs?: number;
      /** Stop streaming after the first delta and never finish (the client must cut it). */
      hang?: boolean;
    }
  | { status: number; errorType: string; message: string };

/** A request as the script sees it. */
export interface FakeRequest {
  /** 0-based count of /v1/messages requests so far. */
  index: number;
  model: string;
  stream: boolean;
  /** Text of the first user message (a sub-agent's first message is its prompt). */
  firstUserText: string;
  /** Text of the last user message's text blocks. */
  lastUserText: string;
  /** tool_result blocks of the last user message. */
  toolResults: Array<{ tool_use_id: string; is_error: boolean; content: string }>;
  /** Number of messages in the conversation. */
  messageCount: number;
  /** Names of the tools offered. */
  tools: string[];
  /** Text of the system prompt. */
  system: string;
}

export type FakeScript = (req: FakeRequest) => FakeReply;

export interface FakeServer {
  url: string;
  /** One line per request: what it asked and what was answered (for debugging a capture). */
  log: string[];
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: string; content?: unknown }) => (b?.type === 'text' ? (b.text ?? '') : b?.type === 'tool_result' ? textOf(b.content) : ''))
    .join('\n');
}

function describe(body: Record<string, unknown>, index: number): FakeRequest {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Array<{ role: string; content: unknown }>;
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1);
  const lastBlocks = Array.isArray(last?.content) ? (last!.content as Array<Record<string, unknown>>) : [];
  const system = Array.isArray(body.system) ? (body.system as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n') : String(body.system ?? '');
  return {
    index,
    model: String(body.model ?? ''),
    stream: body.stream === true,
    firstUserText: textOf(users[0]?.content),
    lastUserText: typeof last?.content === 'string' ? last.content : lastBlocks.filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n'),
    toolResults: lastBlocks
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({ tool_use_id: String(b.tool_use_id), is_error: b.is_error === true, content: textOf(b.content) })),
    messageCount: messages.length,
    tools: (Array.isArray(body.tools) ? (body.tools as Array<{ name?: string }>) : []).map((t) => String(t.name)),
    system,
  };
}

/** Splits text into about three pieces (several deltas per block). */
function pieces(text: string, parts = 3): string[] {
  if (text.length < parts * 2) return [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Distinct counts per call, so a total shows which calls it holds. */
function usageOf(n: number, reply: Extract<FakeReply, { blocks: FakeBlock[] }>): FakeUsage {
  return {
    input_tokens: 100 + 7 * n,
    cache_creation_input_tokens: n === 0 ? 500 : 20 + n,
    cache_read_input_tokens: n === 0 ? 0 : 1000 + 100 * n,
    output_tokens: 10 + 3 * n,
    ...reply.usage,
  };
}

/** A non-streaming reply (the CLI's auxiliary calls may ask for one): the whole Message as JSON. */
function whole(res: http.ServerResponse, req: FakeRequest, reply: Extract<FakeReply, { blocks: FakeBlock[] }>): string {
  const usage = usageOf(req.index, reply);
  const content = reply.blocks.map((b, i) => (b.type === 'text' ? b : { type: 'tool_use', id: b.id ?? `toolu_fake_${req.index}_${i}`, name: b.name, input: b.input }));
  const toolUse = reply.blocks.some((b) => b.type === 'tool_use');
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${req.index}` });
  res.end(JSON.stringify({ id: `msg_fake_${req.index}`, type: 'message', role: 'assistant', model: req.model, content, stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null, usage }));
  return `ok (whole) ${JSON.stringify(usage)}`;
}

async function stream(res: http.ServerResponse, req: FakeRequest, reply: Extract<FakeReply, { blocks: FakeBlock[] }>, close: Set<() => void>): Promise<string> {
  const n = req.index;
  const usage = usageOf(n, reply);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}` });
  let cut = false;
  close.add(() => (cut = true));
  const send = async (event: Record<string, unknown>) => {
    if (cut) return;
    res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    if (reply.delayMs) await sleep(reply.delayMs);
  };
  await send({
    type: 'message_start',
    message: {
      id: `msg_fake_${n}`,
      type: 'message',
      role: 'assistant',
      model: req.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens, output_tokens: 1 },
    },
  });
  let toolUse = false;
  for (const [index, block] of reply.blocks.entries()) {
    if (block.type === 'text') {
      await send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text)) {
        await send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        if (reply.hang) {
          // Keep the connection open until the client goes away.
          await new Promise<void>((resolve) => close.add(resolve));
          return 'hung';
        }
      }
    } else {
      toolUse = true;
      const id = block.id ?? `toolu_fake_${n}_${index}`;
      await send({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: block.name, input: {} } });
      for (const piece of pieces(JSON.stringify(block.input), 4)) {
        await send({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    await send({ type: 'content_block_stop', index });
  }
  await send({ type: 'message_delta', delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  await send({ type: 'message_stop' });
  res.end();
  return `ok ${JSON.stringify(usage)}`;
}

/** Starts the fake on 127.0.0.1 (an ephemeral port). */
export async function startFakeAnthropic(script: FakeScript): Promise<FakeServer> {
  const log: string[] = [];
  let count = 0;
  const hanging = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '').split('?')[0];
        if (req.method !== 'POST' || path !== '/v1/messages') {
          log.push(`${req.method} ${req.url} -> 404`);
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
          return;
        }
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          // answered below as an empty conversation
        }
        const info = describe(body, count++);
        const reply = script(info);
        const head = `#${info.index} model=${info.model} stream=${info.stream} msgs=${info.messageCount} tools=${info.tools.join(',')} first=${JSON.stringify(info.firstUserText.slice(0, 80))} last=${JSON.stringify(info.lastUserText.slice(0, 80))} results=${info.toolResults.length}`;
        if ('status' in reply) {
          log.push(`${head} -> ${reply.status}`);
          res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_fake_${info.index}` });
          res.end(JSON.stringify({ type: 'error', error: { type: reply.errorType, message: reply.message } }));
          return;
        }
        if (!info.stream) {
          log.push(`${head} -> ${whole(res, info, reply)}`);
          return;
        }
        const close = new Set<() => void>();
        const cutOff = () => {
          for (const f of close) f();
        };
        res.on('close', cutOff);
        hanging.add(cutOff);
        const outcome = await stream(res, info, reply, close);
        hanging.delete(cutOff);
        log.push(`${head} -> ${outcome}`);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const f of hanging) f();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

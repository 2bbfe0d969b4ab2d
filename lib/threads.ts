/**
 * One notion of "the root thread", shared by every tool that groups by turn.
 *
 * The producer writes `turn_completed`, `turn_failed`, `turn_interrupted`,
 * `usage_updated`, `tool_*`, `command_*`, `file_changed`, `todo_updated`,
 * `request_context` and `provider_state` for ANY thread, sub-agent threads
 * included (their `thread_id` is the agent id, and they never had a
 * `turn_started`). See ../shared/WIRE-FORMAT.md, trap 3. The root thread is
 * the `thread_id` of `thread_started` / `thread_resumed` / `thread_forked`;
 * `turn_started` is written for the root thread only, so it names the root
 * too when the thread event was cut or filtered away.
 *
 * A child thread's turn ends, usage and tools belong to that sub-agent, not
 * to the main agent, and are not protocol errors.
 */

/** Event types that name the root thread of a run. */
export const ROOT_THREAD_TYPES: ReadonlySet<string> = new Set(['thread_started', 'thread_resumed', 'thread_forked']);

/** Event types that start a new run in a concatenated stream. */
export const RUN_START_TYPES: ReadonlySet<string> = new Set(['session_configured', ...ROOT_THREAD_TYPES]);

/** Key of a turn: turn ids are unique only within their thread. */
export function turnKey(threadId: string, turnId: string): string {
  return `${threadId}\u0000${turnId}`;
}

/** Key of an item: item ids are unique only within their turn (and thread). */
export function itemKey(threadId: string, turnId: string, itemId: string): string {
  return `${threadId}\u0000${turnId}\u0000${itemId}`;
}

/** How a thread relates to the run. */
export type ThreadRole = 'root' | 'child' | 'unknown';

/**
 * Tracks which threads are the run's root and which are sub-agents, from the
 * events as they pass. Feed every event to {@link RootThreads.observe} in
 * stream order (the fields it reads: `type`, `thread_id`, `agent_id`), then
 * ask {@link RootThreads.role} or {@link RootThreads.isRoot}.
 *
 * Memory is bounded by the number of distinct threads and agents named.
 */
export class RootThreads {
  private readonly roots = new Set<string>();
  private readonly agents = new Set<string>();
  private readonly cap: number;
  /** The root added last (the last of {@link rootIds}), kept: a scanner asks per turn. */
  private newestRoot: string | undefined;

  /** @param cap most agent ids remembered (a hostile stream cannot grow it without bound). */
  constructor(cap = 100_000) {
    this.cap = cap;
  }

  /** Records what an event says about threads. */
  observe(type: string, threadId: unknown, agentId?: unknown): void {
    if (typeof threadId === 'string' && threadId !== '' && (ROOT_THREAD_TYPES.has(type) || type === 'turn_started')) {
      if (!this.roots.has(threadId)) {
        this.roots.add(threadId);
        this.newestRoot = threadId;
      }
      return;
    }
    if (type.startsWith('subagent_') && typeof agentId === 'string' && agentId !== '' && this.agents.size < this.cap) {
      this.agents.add(agentId);
    }
  }

  /** Whether a root thread is known yet. */
  get known(): boolean {
    return this.roots.size > 0;
  }

  /** The root thread ids seen so far. */
  rootIds(): string[] {
    return [...this.roots];
  }

  /** The last of {@link rootIds} (the root named first last), without building the list. */
  lastRootId(): string | undefined {
    return this.newestRoot;
  }

  /**
   * `root` for a thread named by thread_* or turn_started; `child` for a
   * thread that is not (once a root is known), or that is a known agent id;
   * `unknown` when no root has been seen (a filtered or cut stream). An empty
   * thread id (exec-side ends and setup failures) counts as the root.
   */
  role(threadId: string): ThreadRole {
    if (threadId === '' || this.roots.has(threadId)) return 'root';
    if (this.agents.has(threadId)) return 'child';
    return this.roots.size > 0 ? 'child' : 'unknown';
  }

  /** Whether events of this thread belong to the main agent (`unknown` counts as root). */
  isRoot(threadId: string): boolean {
    return this.role(threadId) !== 'child';
  }

  /** Forgets everything (a new input file is a new run). */
  reset(): void {
    this.roots.clear();
    this.agents.clear();
    this.newestRoot = undefined;
  }
}

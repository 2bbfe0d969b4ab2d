/**
 * Sub-agents as the stream reports them (subagent_started/_updated/_completed,
 * no turn id). The first event seen for an agent may already be `_completed`
 * and terminal duplicates happen; token fields are cumulative per agent, so
 * the last report is the agent's usage. Memory is capped.
 */
import { tokensOf, type Tokens } from '../events.js';
import { dropOldest, str } from './format.js';
import type { SubagentView } from './renderer.js';
import { addUsage, hasUsage, zeroUsage } from './token-usage.js';

const MAX_AGENTS = 4096;

/** Statuses shown as a success. */
export const OK_STATUSES: ReadonlySet<string> = new Set(['completed', 'complete', 'success', 'succeeded', 'ok', 'done']);

/** Tracks sub-agents; see the module comment. */
export class Agents {
  /** Last status of agents not yet completed. */
  private readonly open = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly usage = new Map<string, Tokens>();
  /** Terminal status of agents already shown as ended: a repeated end is not shown again. */
  private readonly ended = new Map<string, string>();

  /** A name for the thread of an agent (its task name), or the id itself. */
  label(agentId: string): string {
    return this.names.get(agentId) ?? agentId;
  }

  /** Sum of the last report of every agent, and how many reported tokens. */
  totals(): { usage: Tokens; count: number } {
    const usage = zeroUsage();
    for (const u of this.usage.values()) addUsage(usage, u);
    return { usage, count: this.usage.size };
  }

  /** Takes one subagent_* event; returns what to show, or undefined for a tokens-only update. */
  report(e: Record<string, unknown>, type: string): SubagentView | undefined {
    const id = str(e.agent_id);
    const status = str(e.status) || (type === 'subagent_completed' ? 'completed' : 'running');
    const before = this.open.get(id);
    const name = str(e.task_name) || str(e.agent_type) || id || 'subagent';
    if (id !== '' && (this.names.has(id) || this.names.size < MAX_AGENTS)) this.names.set(id, name);
    const usage = tokensOf(e);
    if (hasUsage(usage) && (this.usage.has(id) || this.usage.size < MAX_AGENTS)) this.usage.set(id, usage);
    const terminal = type === 'subagent_completed';
    if (terminal) {
      this.open.delete(id);
      // The producer may repeat a terminal notification (wire reference): shown once.
      if (this.ended.get(id) === status) return undefined;
      dropOldest(this.ended, MAX_AGENTS);
      this.ended.set(id, status);
    } else {
      this.ended.delete(id);
      if (before === status) return undefined; // a progress update: tokens only
      dropOldest(this.open, MAX_AGENTS);
      this.open.set(id, status);
    }
    return {
      id,
      name,
      kind: str(e.agent_type) !== '' && str(e.agent_type) !== name ? str(e.agent_type) : '',
      status,
      terminal,
      verb: before === undefined && type === 'subagent_started' ? 'started' : status,
      description: before === undefined ? str(e.description) : '',
      ok: OK_STATUSES.has(status),
      error: str(e.error),
      usage: hasUsage(usage) ? usage : undefined,
      result: str(e.result).replace(/\s+$/, ''),
      resultPath: e.result_truncated === true ? str(e.result_path) : '',
    };
  }

  /** Forgets the run's agents (names are kept: a later run may still name them). */
  reset(): void {
    this.open.clear();
    this.usage.clear();
    this.ended.clear();
  }
}

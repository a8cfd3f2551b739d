import { TtlCache } from '../ttl-cache.js';
import type { ValidationRule } from '../validation-rules/validation-rule.js';

/** How long a container trusts what it learnt; a hint is only a guess checked against the read, so age bounds memory, not staleness. */
export const READ_HINT_MS = 10 * 60 * 1000;
/** Campaigns read ahead for codes whose campaign this container has not seen yet: a few consistent reads of extra RCU, not a round trip. */
export const RECENT_CAMPAIGNS = 3;

/**
 * What this container learnt from earlier validations and redemptions, so the next one can ask for
 * everything in one BatchGetItem instead of two or three: which campaign a code or a promotion tier
 * belongs to, a code's voucher id, the validation rules assigned to a voucher, tier or campaign,
 * which order and customer a source id names, and the campaigns each project used last.
 *
 * Every hint is a guess the read verifies (the voucher, tier pointer and source-id claim are read in
 * the same batch and win): a wrong or stale hint costs the second BatchGetItem it would have saved,
 * never a wrong answer. Campaigns, vouchers, orders and customers are always read fresh and
 * consistently. The one copy kept is of validation rules and assignments, used only when the project's
 * rules revision read in the same batch says they are unchanged (rulesOf).
 */
export class ReadHints {
  private readonly pointers: TtlCache<string>;
  private readonly recent: TtlCache<readonly string[]>;
  private readonly projectRules: TtlCache<ProjectRules>;

  constructor(now: () => number, maxEntries = 20_000) {
    this.pointers = new TtlCache(READ_HINT_MS, now, maxEntries);
    this.recent = new TtlCache(READ_HINT_MS, now, 1000);
    this.projectRules = new TtlCache(READ_HINT_MS, now, 1000);
  }

  campaignOfCode(projectId: string, code: string): string | undefined {
    return this.pointers.get(`${projectId}\u0000code\u0000${code}`);
  }

  campaignOfTier(projectId: string, tierId: string): string | undefined {
    return this.pointers.get(`${projectId}\u0000tier\u0000${tierId}`);
  }

  voucherIdOfCode(projectId: string, code: string): string | undefined {
    return this.pointers.get(`${projectId}\u0000voucher\u0000${code}`);
  }

  /**
   * The project's validation rules and assignments as this container last read them, at the project's rules
   * `revision` (lib/db/entities.ts validationRuleCounter). Valid only while the revision read with the
   * redeemables is this one: every rule and assignment write raises it in its own transaction.
   */
  rulesOf(projectId: string): ProjectRules | undefined {
    return this.projectRules.get(projectId);
  }

  /** Records rules and assignments read at `revision`: merged into what is known at the same revision, else replacing it. */
  learnRules(projectId: string, revision: number, objects: ReadonlyMap<string, readonly string[]>, rules: readonly ValidationRule[]): void {
    const known = this.projectRules.get(projectId);
    const base = known?.revision === revision && known.objects.size < MAX_CACHED_OBJECTS ? known : { revision, objects: new Map(), rules: new Map() };
    for (const [id, ruleIds] of objects) base.objects.set(id, ruleIds);
    for (const rule of rules) base.rules.set(rule.id, rule);
    this.projectRules.set(projectId, base);
  }

  orderOfSourceId(projectId: string, sourceId: string): string | undefined {
    return this.pointers.get(`${projectId}\u0000order\u0000${sourceId}`);
  }

  customerOfSourceId(projectId: string, sourceId: string): string | undefined {
    return this.pointers.get(`${projectId}\u0000customer\u0000${sourceId}`);
  }

  /** The campaigns this project's last reads needed, most recent first. */
  recentCampaigns(projectId: string): readonly string[] {
    return this.recent.get(projectId) ?? [];
  }

  /** Records the voucher id a read of one voucher found for its code (nothing else is learnt: no campaign is marked recent). */
  learnVoucherId(projectId: string, code: string, id: string): void {
    this.pointers.set(`${projectId}\u0000voucher\u0000${code}`, id);
  }

  /** Records what a read found (the truth, not the guess). */
  learn(projectId: string, found: Learnt): void {
    for (const [code, campaignId] of found.codes) this.pointers.set(`${projectId}\u0000code\u0000${code}`, campaignId);
    for (const [tierId, campaignId] of found.tiers) this.pointers.set(`${projectId}\u0000tier\u0000${tierId}`, campaignId);
    for (const [code, id] of found.vouchers ?? []) this.learnVoucherId(projectId, code, id);
    if (found.order) this.pointers.set(`${projectId}\u0000order\u0000${found.order.sourceId}`, found.order.id);
    if (found.customer) this.pointers.set(`${projectId}\u0000customer\u0000${found.customer.sourceId}`, found.customer.id);
    const used = [...new Set([...found.codes.values(), ...found.tiers.values()])];
    if (used.length > 0) {
      const merged = [...new Set([...used, ...this.recentCampaigns(projectId)])].slice(0, RECENT_CAMPAIGNS);
      this.recent.set(projectId, merged);
    }
  }
}

/** A project's validation rules as read at one revision: the rule ids of each object seen (in assignment order), and the rules. */
export interface ProjectRules {
  revision: number;
  objects: Map<string, readonly string[]>;
  rules: Map<string, ValidationRule>;
}

/** Objects whose assignments one project's cache keeps before it starts again. */
const MAX_CACHED_OBJECTS = 20_000;

export interface Learnt {
  codes: ReadonlyMap<string, string>;
  /** Voucher id by code (a voucher's rules are assigned to its id). */
  vouchers?: ReadonlyMap<string, string>;
  tiers: ReadonlyMap<string, string>;
  order: { sourceId: string; id: string } | null;
  customer: { sourceId: string; id: string } | null;
}

/**
 * Hints that know nothing and learn nothing, for a caller whose reads are all answered from memory
 * (a qualification's engine: lib/qualifications/prefetched-reads.ts), where guessing and learning
 * would only cost time: ~50 cache lookups and writes a request.
 */
class NoReadHints extends ReadHints {
  constructor() {
    super(() => 0, 1);
  }
  override campaignOfCode(): undefined {
    return undefined;
  }
  override campaignOfTier(): undefined {
    return undefined;
  }
  override voucherIdOfCode(): undefined {
    return undefined;
  }
  override rulesOf(): undefined {
    return undefined;
  }
  override learnRules(): void {}
  override orderOfSourceId(): undefined {
    return undefined;
  }
  override customerOfSourceId(): undefined {
    return undefined;
  }
  override recentCampaigns(): readonly string[] {
    return [];
  }
  override learn(): void {}
  override learnVoucherId(): void {}
}

export const NO_READ_HINTS: ReadHints = /* @__PURE__ */ new NoReadHints();

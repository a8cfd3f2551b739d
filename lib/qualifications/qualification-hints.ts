import { TtlCache } from '../ttl-cache.js';

/** How long a container keeps what it learnt (bounds memory; the markers, not the age, decide whether it still holds). */
export const QUALIFICATION_HINT_MS = 10 * 60 * 1000;

/** The project's campaigns that offer something to anyone: PROMOTION campaigns (tiers) and the newest STANDALONE ones (generic codes). */
export interface OfferCampaigns {
  promotions: readonly string[];
  standalone: readonly string[];
}

/** The newest codes of a STANDALONE campaign as a Query of its voucher list found them, and the campaign's marker then. */
export interface CodesHint {
  /** codesMarker of the campaign item read before that Query. */
  marker: string;
  codes: readonly string[];
}

/**
 * What a container learnt of the project's offers, with the markers that tell whether it still
 * holds: `campaignsCreated` is the project's campaign counter (campaigns ever created, never
 * lowered) read before the list was queried; each STANDALONE campaign's codes carry its own marker.
 */
export interface OfferHint extends OfferCampaigns {
  campaignsCreated: number;
  /** By STANDALONE campaign id; under NO_CAMPAIGN, the project's vouchers of no campaign (marked by its standalone voucher counter). */
  codes: Readonly<Record<string, CodesHint>>;
}

/**
 * A STANDALONE campaign's codes marker (and the project's for its vouchers of no campaign): its `vouchersCount` (lowered by a delete) and
 * `vouchersInserted` (raised by every insert, never lowered), which both move in the transaction
 * that changes its vouchers; equal markers mean no voucher of it was added or removed between the reads.
 */
export const codesMarker = (c: { vouchersCount: number; vouchersInserted?: number | undefined }): string => `${c.vouchersCount}:${c.vouchersInserted ?? 0}`;

/**
 * What this container learnt from earlier qualifications, so that the next one reads everything in
 * one round (one BatchGetItem beside the wallet's Query) instead of querying the project's campaign
 * list and each generic-code campaign's vouchers again: the campaigns a customer's wallet led to,
 * and the project's offers (OfferHint). A wallet hint is a guess the wallet's Query verifies. An
 * offer hint is trusted only when the markers read in the same BatchGetItem (strongly consistent)
 * equal those it was learnt with; otherwise the list and codes are queried again. Campaigns and
 * vouchers themselves are always read fresh.
 */
export class QualificationHints {
  private readonly wallets: TtlCache<readonly string[]>;
  private readonly offerHints: TtlCache<OfferHint>;

  constructor(now: () => number, maxEntries = 20_000) {
    this.wallets = new TtlCache(QUALIFICATION_HINT_MS, now, maxEntries);
    this.offerHints = new TtlCache(QUALIFICATION_HINT_MS, now, 1000);
  }

  /** The campaigns of the customer's wallet last time (`customer` is `id:<id>` or `src:<source id>`). */
  walletCampaigns(projectId: string, customer: string): readonly string[] {
    return this.wallets.get(`${projectId}\u0000${customer}`) ?? [];
  }

  offers(projectId: string): OfferHint | undefined {
    return this.offerHints.get(projectId);
  }

  /** Records the campaigns the wallet's Query led to (the truth, not the guess). */
  learnWallet(projectId: string, customer: string, walletCampaigns: readonly string[]): void {
    this.wallets.set(`${projectId}\u0000${customer}`, [...new Set(walletCampaigns)]);
  }

  learnOffers(projectId: string, hint: OfferHint): void {
    this.offerHints.set(projectId, hint);
  }
}

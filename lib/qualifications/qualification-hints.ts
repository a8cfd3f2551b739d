import { TtlCache } from '../ttl-cache.js';

/** How long a container trusts what it learnt; a hint is only a guess the reads verify, so age bounds memory, not staleness. */
export const QUALIFICATION_HINT_MS = 10 * 60 * 1000;

/** The project's campaigns that offer something to anyone, as the last qualification found them. */
export interface OfferCampaigns {
  promotions: readonly string[];
  standalone: readonly string[];
}

/**
 * What this container learnt from earlier qualifications, so the next one reads everything in one
 * round of parallel reads instead of two: the campaigns a customer's wallet led to, and the
 * project's promotion and generic-code campaigns. Every hint only says which keys to read early:
 * the wallet and the campaign list are still queried on every request and win (a campaign they
 * name and the hint missed is read in a second round; one the hint named and they no longer do is
 * read and unused). Campaigns and vouchers are always read fresh.
 */
export class QualificationHints {
  private readonly wallets: TtlCache<readonly string[]>;
  private readonly offers: TtlCache<OfferCampaigns>;

  constructor(now: () => number, maxEntries = 20_000) {
    this.wallets = new TtlCache(QUALIFICATION_HINT_MS, now, maxEntries);
    this.offers = new TtlCache(QUALIFICATION_HINT_MS, now, 1000);
  }

  /** The campaigns of the customer's wallet last time (`customer` is `id:<id>` or `src:<source id>`). */
  walletCampaigns(projectId: string, customer: string): readonly string[] {
    return this.wallets.get(`${projectId}\u0000${customer}`) ?? [];
  }

  offerCampaigns(projectId: string): OfferCampaigns {
    return this.offers.get(projectId) ?? { promotions: [], standalone: [] };
  }

  /** Records what the reads found (the truth, not the guess). */
  learn(projectId: string, customer: string | null, walletCampaigns: readonly string[], offers: OfferCampaigns): void {
    if (customer !== null) this.wallets.set(`${projectId}\u0000${customer}`, [...new Set(walletCampaigns)]);
    this.offers.set(projectId, offers);
  }
}

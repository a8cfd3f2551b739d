/**
 * The only place item keys are built. Tenant-owned keys start with `P#<projectId>#`, so a
 * read for one project cannot address another's items. The two exceptions are credential
 * lookups (application keys and OAuth tokens), which arrive before the project is known:
 * they are keyed by the credential itself (a public app id, or a token's SHA-256) and carry
 * the project as an attribute. Codes and ids are case-sensitive; never change their case.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

const project = (projectId: string): string => `P#${projectId}`;
const sequenceKey = (sequence: number): string => String(sequence).padStart(12, '0');

export const keys = {
  project: (projectId: string): ItemKey => ({ PK: project(projectId), SK: 'PROJECT' }),

  /** Live-token ledger of a project: the expiry of every unexpired token, for the 1000 cap. */
  oauthLedger: (projectId: string): ItemKey => ({ PK: project(projectId), SK: 'OAUTH_LEDGER' }),

  appKey: (appId: string): ItemKey => ({ PK: `APPKEY#${appId}`, SK: 'APPKEY' }),
  /** GSI1 entry listing a project's application keys by creation time. */
  appKeyByProject: (projectId: string, createdAt: string, appId: string) => ({
    GSI1PK: `${project(projectId)}#APPKEYS`,
    GSI1SK: `${createdAt}#${appId}`,
  }),
  appKeysOfProjectPartition: (projectId: string): string => `${project(projectId)}#APPKEYS`,

  oauthToken: (tokenHash: string): ItemKey => ({ PK: `OAUTH#${tokenHash}`, SK: 'OAUTH' }),

  /** A campaign, with its voucher template, promotion tiers and the exact `vouchersCount`. */
  campaign: (projectId: string, campaignId: string): ItemKey => ({
    PK: `${project(projectId)}#CAMPAIGN#${campaignId}`,
    SK: 'CAMPAIGN',
  }),
  /** Reserves a campaign name in its project (names are unique, case-sensitive); holds the campaign id. */
  campaignName: (projectId: string, name: string): ItemKey => ({
    PK: `${project(projectId)}#CAMPAIGN_NAME#${name}`,
    SK: 'CAMPAIGN_NAME',
  }),
  /**
   * A campaign's compact listing entry: the fields list filters and orders need, in one partition
   * per project, so listing reads small items instead of whole campaigns.
   */
  campaignListEntry: (projectId: string, createdAt: string, campaignId: string): ItemKey => ({
    PK: `${project(projectId)}#CAMPAIGNS`,
    SK: `${createdAt}#${campaignId}`,
  }),
  campaignListPartition: (projectId: string): string => `${project(projectId)}#CAMPAIGNS`,
  /** A project's campaign counter: how many campaigns exist and the latest `createdAt`, for `total` and page arithmetic. */
  campaignCounter: (projectId: string): ItemKey => ({ PK: project(projectId), SK: 'CAMPAIGN_COUNTER' }),
  /**
   * GSI1 entry of a campaign list entry: its creation number (1, 2, 3, … with no gaps, campaigns are never
   * deleted), zero-padded so that string order is number order. Page p of `limit` is one key range.
   */
  campaignBySequence: (projectId: string, sequence: number) => ({
    GSI1PK: `${project(projectId)}#CAMPAIGN_SEQ`,
    GSI1SK: sequenceKey(sequence),
  }),
  campaignSequencePartition: (projectId: string): string => `${project(projectId)}#CAMPAIGN_SEQ`,
  campaignSequenceSortKey: (sequence: number): string => sequenceKey(sequence),
  /** Points a promotion tier id at its campaign (tiers live inside the campaign item). */
  promotionTier: (projectId: string, tierId: string): ItemKey => ({
    PK: `${project(projectId)}#PROMO_TIER#${tierId}`,
    SK: 'PROMO_TIER',
  }),

  /** A voucher, keyed by its code: the key itself makes codes unique per project. */
  voucher: (projectId: string, code: string): ItemKey => ({ PK: `${project(projectId)}#VOUCHER#${code}`, SK: 'VOUCHER' }),
  /** GSI1 entry listing a campaign's vouchers by creation time. */
  voucherByCampaign: (projectId: string, campaignId: string, createdAt: string, voucherId: string) => ({
    GSI1PK: `${project(projectId)}#CAMPAIGN#${campaignId}#VOUCHERS`,
    GSI1SK: `${createdAt}#${voucherId}`,
  }),
  campaignVouchersPartition: (projectId: string, campaignId: string): string =>
    `${project(projectId)}#CAMPAIGN#${campaignId}#VOUCHERS`,
  /** Points a voucher id at its code, written in the same transaction as the voucher. */
  voucherId: (projectId: string, voucherId: string): ItemKey => ({
    PK: `${project(projectId)}#VOUCHER_ID#${voucherId}`,
    SK: 'VOUCHER_ID',
  }),

  /** A bin entry; entry ids sort by time, so the partition reads in deletion order. */
  binEntry: (projectId: string, entryId: string): ItemKey => ({ PK: `${project(projectId)}#BIN`, SK: entryId }),
  binPartition: (projectId: string): string => `${project(projectId)}#BIN`,

  category: (projectId: string, categoryId: string): ItemKey => ({
    PK: `${project(projectId)}#CATEGORY#${categoryId}`,
    SK: 'CATEGORY',
  }),
  /** Reserves a category name; holds the category id. */
  categoryName: (projectId: string, name: string): ItemKey => ({
    PK: `${project(projectId)}#CATEGORY_NAME#${name}`,
    SK: 'CATEGORY_NAME',
  }),

  campaignTemplate: (projectId: string, templateId: string): ItemKey => ({
    PK: `${project(projectId)}#TEMPLATE#${templateId}`,
    SK: 'CAMPAIGN_TEMPLATE',
  }),
  campaignTemplateName: (projectId: string, name: string): ItemKey => ({
    PK: `${project(projectId)}#TEMPLATE_NAME#${name}`,
    SK: 'CAMPAIGN_TEMPLATE_NAME',
  }),

  /** A reward (CAMPAIGN, COIN or MATERIAL). */
  reward: (projectId: string, rewardId: string): ItemKey => ({ PK: `${project(projectId)}#REWARD#${rewardId}`, SK: 'REWARD' }),
  /** A reward assignment by its id (`rewa_...`). */
  rewardAssignment: (projectId: string, assignmentId: string): ItemKey => ({
    PK: `${project(projectId)}#REWARD_ASSIGNMENT#${assignmentId}`,
    SK: 'REWARD_ASSIGNMENT',
  }),
  /** GSI1 entry listing a reward's assignments by creation time. */
  rewardAssignmentByReward: (projectId: string, rewardId: string, createdAt: string, assignmentId: string) => ({
    GSI1PK: `${project(projectId)}#REWARD#${rewardId}#ASSIGNMENTS`,
    GSI1SK: `${createdAt}#${assignmentId}`,
  }),
  /** One reward on one campaign: the key itself makes the pair unique. Holds a copy of the assignment. */
  rewardAssignmentPair: (projectId: string, rewardId: string, campaignId: string): ItemKey => ({
    PK: `${project(projectId)}#REWARD_ASSIGNMENT#${rewardId}#${campaignId}`,
    SK: 'REWARD_ASSIGNMENT_PAIR',
  }),
  /** GSI1 entry listing a campaign's reward assignments by creation time. */
  rewardAssignmentByCampaign: (projectId: string, campaignId: string, createdAt: string, assignmentId: string) => ({
    GSI1PK: `${project(projectId)}#CAMPAIGN#${campaignId}#REWARDS`,
    GSI1SK: `${createdAt}#${assignmentId}`,
  }),

  /** A custom event schema, keyed by its event name (unique per project, case-sensitive). */
  customEventSchema: (projectId: string, eventName: string): ItemKey => ({
    PK: `${project(projectId)}#EVENT_SCHEMA#${eventName}`,
    SK: 'EVENT_SCHEMA',
  }),
  /** GSI1 entry listing a project's custom event schemas by creation time. */
  customEventSchemaListEntry: (projectId: string, createdAt: string, schemaId: string) => ({
    GSI1PK: `${project(projectId)}#EVENT_SCHEMAS`,
    GSI1SK: `${createdAt}#${schemaId}`,
  }),
  customEventSchemasPartition: (projectId: string): string => `${project(projectId)}#EVENT_SCHEMAS`,
  /** Points a custom event schema id (`ms_...`) at its event name. */
  customEventSchemaId: (projectId: string, schemaId: string): ItemKey => ({
    PK: `${project(projectId)}#EVENT_SCHEMA_ID#${schemaId}`,
    SK: 'EVENT_SCHEMA_ID',
  }),

  /** A customer by id (`cust_...`). */
  customer: (projectId: string, customerId: string): ItemKey => ({
    PK: `${project(projectId)}#CUSTOMER#${customerId}`,
    SK: 'CUSTOMER',
  }),
  /** Points a customer `source_id` at the customer id: the key makes source ids unique per project. */
  customerSourceId: (projectId: string, sourceId: string): ItemKey => ({
    PK: `${project(projectId)}#CUSTOMER_SRC#${sourceId}`,
    SK: 'CUSTOMER_SRC',
  }),
  /** A custom event, in its customer's partition (the customer's activity, in time order). */
  customEvent: (projectId: string, customerId: string, createdAt: string, eventId: string): ItemKey => ({
    PK: `${project(projectId)}#CUSTOMER#${customerId}#EVENTS`,
    SK: `EVENT#${createdAt}#${eventId}`,
  }),
  customerEventsPartition: (projectId: string, customerId: string): string => `${project(projectId)}#CUSTOMER#${customerId}#EVENTS`,

  /** An async action (`aa_...`): a bulk job's status, progress and result; its worker advances it by conditional writes. */
  asyncAction: (projectId: string, asyncActionId: string): ItemKey => ({
    PK: `${project(projectId)}#ASYNC_ACTION#${asyncActionId}`,
    SK: 'ASYNC_ACTION',
  }),

  /** The first reply to a request sent with an `Idempotency-Key`, with the request's fingerprint. */
  idempotencyRecord: (projectId: string, key: string): ItemKey => ({
    PK: `${project(projectId)}#IDEMPOTENCY#${key}`,
    SK: 'IDEMPOTENCY',
  }),
  /**
   * A project's request counter for one fixed rate-limit window (`windowStart` in Unix seconds):
   * a new item, in its own partition, each window, so a window's count never needs resetting.
   */
  rateLimitWindow: (projectId: string, windowStart: number): ItemKey => ({
    PK: `${project(projectId)}#RATE#${windowStart}`,
    SK: 'RATE_LIMIT',
  }),
  /**
   * A loyalty points bucket. All buckets of a campaign share one partition sorted by expiry date
   * (no expiry sorts last), so the points-expiration export streams them in order with one Query;
   * GSI1 lists one card's buckets in the same order (balance, spending soonest-expiring first).
   */
  pointsBucket: (projectId: string, campaignId: string, expiresKey: string, bucketId: string): ItemKey => ({
    PK: `${project(projectId)}#LOYALTY#${campaignId}#BUCKETS`,
    SK: `${expiresKey}#${bucketId}`,
  }),
  campaignBucketsPartition: (projectId: string, campaignId: string): string => `${project(projectId)}#LOYALTY#${campaignId}#BUCKETS`,
  pointsBucketByCard: (projectId: string, voucherId: string, expiresKey: string, bucketId: string) => ({
    GSI1PK: `${project(projectId)}#CARD#${voucherId}#BUCKETS`,
    GSI1SK: `${expiresKey}#${bucketId}`,
  }),
  cardBucketsPartition: (projectId: string, voucherId: string): string => `${project(projectId)}#CARD#${voucherId}#BUCKETS`,
  /**
   * A loyalty card transaction (a manual balance change with its reason and source id), in the
   * card's own partition sorted by time, so a card's history is one Query.
   */
  cardTransaction: (projectId: string, voucherId: string, createdAt: string, transactionId: string): ItemKey => ({
    PK: `${project(projectId)}#CARD#${voucherId}#TRANSACTIONS`,
    SK: `${createdAt}#${transactionId}`,
  }),
  cardTransactionsPartition: (projectId: string, voucherId: string): string => `${project(projectId)}#CARD#${voucherId}#TRANSACTIONS`,
  /**
   * A loyalty earning rule, in the partition of the event that triggers it (sorted by campaign),
   * so POST /v1/events finds every rule for its event name with one Query.
   */
  earningRule: (projectId: string, eventName: string, campaignId: string, ruleId: string): ItemKey => ({
    PK: `${project(projectId)}#EARNING_RULES#${eventName}`,
    SK: `${campaignId}#${ruleId}`,
  }),
  earningRulesOfEventPartition: (projectId: string, eventName: string): string => `${project(projectId)}#EARNING_RULES#${eventName}`,

  /**
   * A referral conversion: one referred customer converted one referral code of one campaign. The
   * key itself makes it once per (campaign, code, referred customer); a code's conversions share a
   * partition. GSI1 lists a referrer's conversions by time.
   */
  referralConversion: (projectId: string, campaignId: string, code: string, refereeId: string): ItemKey => ({
    PK: `${project(projectId)}#REFERRAL#${campaignId}#${code}`,
    SK: `CONVERSION#${refereeId}`,
  }),
  referralConversionsOfCodePartition: (projectId: string, campaignId: string, code: string): string =>
    `${project(projectId)}#REFERRAL#${campaignId}#${code}`,
  referralConversionByReferrer: (projectId: string, referrerId: string, createdAt: string, conversionId: string) => ({
    GSI1PK: `${project(projectId)}#CUSTOMER#${referrerId}#REFERRALS`,
    GSI1SK: `${createdAt}#${conversionId}`,
  }),

  /**
   * The voucher a customer holds in a campaign (code and voucher id): one per (holder, campaign).
   * Put with `attribute_not_exists(PK)` in the transaction that publishes the voucher, so two
   * concurrent publications to one customer cannot both commit; found with one GetItem.
   */
  heldVoucher: (projectId: string, customerId: string, campaignId: string): ItemKey => ({
    PK: `${project(projectId)}#HOLDER#${customerId}#CAMPAIGN#${campaignId}`,
    SK: 'HELD_VOUCHER',
  }),

  /** An export (`exp_...`): its parameters, status and the per-export download signing secret. */
  export: (projectId: string, exportId: string): ItemKey => ({
    PK: `${project(projectId)}#EXPORT#${exportId}`,
    SK: 'EXPORT',
  }),
} as const;

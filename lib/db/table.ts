/**
 * The single table's physical shape, shared by the CDK stateful stack, the local runtime's
 * bootstrap and tests, so that the three can never disagree.
 */
export const tableDesign = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: 'ttl',
  /**
   * The table's stream: the outbox of webhook events (lib/events-out). Each change's own item is
   * its event record, so an event costs the hot path no write; the consumer needs both images
   * (a removal's event carries the removed item, an update compares the two).
   */
  streamView: 'NEW_AND_OLD_IMAGES',
  indexes: {
    gsi1: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL' },
    /**
     * A sparse index: only items that set GSI2PK are in it (the unpublished vouchers of a
     * campaign and the vouchers of a holder, lib/db/entities.ts `voucher`; campaign templates by
     * type), so a Query reads exactly the members of a set.
     */
    gsi2: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projection: 'ALL' },
    /**
     * A keys-only index (only the table key and its own key are copied): lists where a page may
     * start deep in a long key range (every voucher of a project by creation), so skipping to page
     * p reads ~150-byte entries instead of whole items, then the page's items are read by key.
     * Added alone (CloudFormation creates one GSI per stack update: docs/deploy.md).
     */
    gsi3: { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', projection: 'KEYS_ONLY' },
    /**
     * A sparse keys-only index, like GSI3: only vouchers with a category have an entry, one
     * partition per (project, category) sorted by creation (GET /v1/vouchers?category=). Added
     * alone, in a deploy of its own (docs/deploy.md "GSI4 and CloudFormation").
     */
    gsi4: { name: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', projection: 'KEYS_ONLY' },
    /**
     * A keys-only index, like GSI3: every voucher of a project by its last change (`updatedAt`,
     * else `createdAt`), for GET /v1/vouchers `updated_at[…]` and `order=updated_at`. Every write
     * that sets a voucher's `updatedAt` moves its entry in the same write (lib/db/entities.ts
     * voucherChangeSet). Added alone, in a deploy of its own (docs/deploy.md "GSI5 and CloudFormation").
     */
    gsi5: { name: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK', projection: 'KEYS_ONLY' },
  },
} as const;

/** Attributes every item carries besides its keys: its entity's name and version (written and dropped by lib/db/entity.ts). */
export const ENTITY_ATTR = 'entity';
export const VERSION_ATTR = 'v';

/**
 * The single table's physical shape, shared by the CDK stateful stack, the local runtime's
 * bootstrap and tests, so that the three can never disagree.
 */
export const tableDesign = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: 'ttl',
  indexes: {
    gsi1: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /**
     * A sparse index: only items that set GSI2PK are in it (the unpublished vouchers of a
     * campaign, lib/db/entities.ts `voucher`; campaign templates by type), so a Query reads
     * exactly the members of a set.
     */
    gsi2: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  },
} as const;

/** Attributes every item carries besides its keys: its entity's name and version (written and dropped by lib/db/entity.ts). */
export const ENTITY_ATTR = 'entity';
export const VERSION_ATTR = 'v';

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
  },
} as const;

/** Attributes every item carries besides its keys: its entity's name and version (written and dropped by lib/db/entity.ts). */
export const ENTITY_ATTR = 'entity';
export const VERSION_ATTR = 'v';

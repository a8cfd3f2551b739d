import { redemption, redemptionByCampaign } from '../db/entities.js';
import { backfillIndexEntries, type IndexBackfill } from '../db/index-backfill.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const { gsi4 } = tableDesign.indexes;

/**
 * Gives redemptions and rollbacks written before GET /v1/redemptions?campaign= read an index their
 * campaign's GSI4 entry (`redemptionByCampaign`), as every one written now gets it from its entity; until
 * then a campaign's list leaves them out. One filtered Scan (`backfillIndexEntries`); each write is
 * conditioned on the redemption being the one read (same id and date). Idempotent: a rerun finds nothing.
 */
export function backfillRedemptionCampaigns(deps: Deps, projectId?: string): Promise<IndexBackfill> {
  return backfillIndexEntries(
    deps,
    {
      entity: redemption.name,
      partitionKey: gsi4.partitionKey,
      sortKey: gsi4.sortKey,
      needs: { filter: 'attribute_type(#campaign, :string)', names: { '#campaign': 'campaignId' }, values: { ':string': 'S' } },
      fromItem: (item) => redemption.fromItem(item),
      keyOf: (r) => redemption.key(r.projectId, r.id),
      entryOf: (r) => {
        if (!r.campaignId) return null;
        const keys = redemptionByCampaign(r.projectId, r.campaignId, r.date, r.id);
        return { pk: keys[gsi4.partitionKey], sk: keys[gsi4.sortKey] };
      },
      same: (r) => ({ condition: 'id = :id AND #date = :date', names: { '#date': 'date' }, values: { ':id': r.id, ':date': r.date } }),
    },
    projectId,
  );
}

import { type ActivityEvent, mergePage } from '../activity/activity.js';
import { type ActivityPage, cursorOf } from '../activity/activity-page.js';
import { type ActivityWindow, cardPublicationSource, cardRedemptionSource, cardTransactionSource } from '../activity/activity.repo.js';
import type { MemberActivityQuery } from '../activity/activity.schema.js';
import type { Runtime } from '../runtime.js';
import { findCard } from './loyalty-member.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

const all = (): boolean => true;

/**
 * GET /v1/loyalties/members/{memberId}/activity and GET /v1/loyalties/{campaignId}/members/{memberId}/activity:
 * what happened to the card, newest first unless `order=created_at`, after `starting_after_id`:
 * its publication, its transactions (one Query of the card's transaction partition) and its
 * redemptions and rollbacks (one Query of the redemptions' voucher index), merged by time; each
 * read stops one event beyond the page.
 * @throws NotFoundError (campaign, voucher), InvalidQueryParamsError (a cursor that is no event id).
 */
export async function listMemberActivity(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  q: MemberActivityQuery,
): Promise<ActivityPage> {
  const descending = q.order === '-created_at';
  const after = cursorOf(q, descending);
  const card = await findCard(deps, projectId, campaignRef, memberId);
  const w: ActivityWindow = { descending, after, from: null, to: null, pageSize: q.limit + 1 };
  const sources: AsyncIterator<ActivityEvent>[] = [
    cardTransactionSource(deps, card, w, all, null),
    cardRedemptionSource(deps, card, w, all),
    cardPublicationSource(deps, card, w, all),
  ];
  return mergePage(sources, q.limit, descending);
}

/**
 * GET /v1/loyalties/members/{memberId}/activities and GET /v1/loyalties/{campaignId}/members/{memberId}/activities:
 * the paths the official SDK's deprecated `loyalties.getMemberActivities` calls (the reference has
 * no such operation), answered as their `…/activity` twins (docs/decisions.md "Activity").
 * @throws as listMemberActivity.
 */
export const getMemberActivities: typeof listMemberActivity = (...args) => listMemberActivity(...args);

import { snakeize } from '../case.js';
import { toCustomerReply } from '../customers/customer.mapper.js';
import { toVoucherReply } from '../vouchers/voucher.mapper.js';
import type * as z from '../zod.js';
import type { Publication, PublishedVoucher } from './publication.js';
import type { publicationListItemReplySchema, publicationListReplySchema, publicationReplySchema } from './publication.reply.js';
import type { PublicationPage, PublicationResult } from './publication.service.js';

type PublicationReply = z.input<typeof publicationReplySchema>;
type ListItemReply = z.input<typeof publicationListItemReplySchema>;

/** The fields every publication object shares; `customer` is the customer given (now, or as it was when published). */
function baseOf(p: Publication, customer: Publication['customer']) {
  return {
    id: p.id,
    object: 'publication' as const,
    created_at: p.createdAt,
    customer_id: p.customerId,
    ...(customer.sourceId !== null ? { tracking_id: customer.sourceId } : {}),
    metadata: p.metadata,
    channel: p.channel,
    source_id: p.sourceId,
    result: 'SUCCESS' as const,
    customer: toCustomerReply(customer),
    vouchers_id: p.vouchers.map((v) => v.id),
  };
}

/** The publication object of a create: with the whole voucher it gave, or with the codes of several. */
export function toPublicationReply(r: PublicationResult): PublicationReply {
  const base = baseOf(r.publication, r.customer);
  return r.voucher ? { ...base, voucher: toVoucherReply(r.voucher) } : { ...base, vouchers: r.publication.vouchers.map((v) => v.code) };
}

function listVoucherOf(v: PublishedVoucher): Extract<ListItemReply, { voucher: unknown }>['voucher'] {
  return {
    code: v.code,
    object: 'voucher',
    campaign: v.campaignName,
    ...(v.gift
      ? {
          gift: {
            amount: v.gift.amount,
            subtracted_amount: v.gift.subtractedAmount,
            balance: v.gift.balance,
            ...(v.gift.effect ? { effect: v.gift.effect } : {}),
          },
        }
      : {}),
    ...(v.loyaltyCard ? { loyalty_card: { points: v.loyaltyCard.points, balance: v.loyaltyCard.balance } } : {}),
    ...(v.discount ? { discount: snakeize(v.discount) } : {}),
    is_referral_code: v.isReferralCode,
  };
}

/** A publication in a list, with its customer and voucher as they were when it was made. */
export function toPublicationListItemReply(p: Publication): ListItemReply {
  const base = baseOf(p, p.customer);
  return p.voucher ? { ...base, voucher: listVoucherOf(p.voucher) } : { ...base, vouchers: p.vouchers.map((v) => v.code) };
}

/** One page of GET /v1/publications. */
export const toPublicationListReply = (page: PublicationPage): z.input<typeof publicationListReplySchema> => ({
  object: 'list',
  data_ref: 'publications',
  publications: page.publications.map(toPublicationListItemReply),
  total: page.total,
  has_more: page.hasMore,
});

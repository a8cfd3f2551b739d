import type { Item } from '../db/entity.js';
import type { Voucher } from './voucher.js';

/** The keys of T's optional fields. */
type OptionalKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/** Every optional field of Voucher: copied only when the item has it (absent stays absent). */
const OPTIONAL_FIELDS = [
  'referralConversions',
  'publicationId',
  'sessions',
  'sessionsRevision',
  'sessionsUntil',
] as const satisfies readonly OptionalKeys<Voucher>[];
// A field made optional in Voucher and not listed above fails to compile here.
type Unlisted = Exclude<OptionalKeys<Voucher>, (typeof OPTIONAL_FIELDS)[number]>;
const everyOptionalFieldListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOptionalFieldListed;

/**
 * A voucher item as a value that is only read, never written back: one object literal of the
 * Voucher fields (a required field missing here fails to compile), instead of the entity's
 * generic fromItem. The SDK hands items of more than ~20 attributes over in dictionary mode, and
 * fromItem's loop of keyed stores makes the value one too (~2.5 µs a voucher, and every later
 * read and JSON.stringify of it slower); a literal is ~0.2 µs and a fast-mode object. For the
 * read-only paths that turn tens of vouchers into values per request (the qualifications'
 * wallet and generic codes). Attributes outside the Voucher type are not carried, which is why
 * nothing read this way may be written back (test/unit/vouchers/voucher-read.test.ts checks it
 * equals fromItem on every field).
 */
export function readOnlyVoucher(i: Item): Voucher {
  const v: Voucher = {
    id: i.id as string,
    code: i.code as string,
    projectId: i.projectId as string,
    campaignId: i.campaignId as Voucher['campaignId'],
    campaignName: i.campaignName as Voucher['campaignName'],
    category: i.category as Voucher['category'],
    type: i.type as Voucher['type'],
    discount: i.discount as Voucher['discount'],
    gift: i.gift as Voucher['gift'],
    loyaltyCard: i.loyaltyCard as Voucher['loyaltyCard'],
    startDate: i.startDate as Voucher['startDate'],
    expirationDate: i.expirationDate as Voucher['expirationDate'],
    validityTimeframe: i.validityTimeframe as Voucher['validityTimeframe'],
    validityDayOfWeek: i.validityDayOfWeek as Voucher['validityDayOfWeek'],
    validityHours: i.validityHours as Voucher['validityHours'],
    active: i.active as boolean,
    additionalInfo: i.additionalInfo as Voucher['additionalInfo'],
    metadata: i.metadata as Voucher['metadata'],
    isReferralCode: i.isReferralCode as boolean,
    createdAt: i.createdAt as string,
    updatedAt: i.updatedAt as Voucher['updatedAt'],
    holderId: i.holderId as Voucher['holderId'],
    referrerId: i.referrerId as Voucher['referrerId'],
    redemptionQuantity: i.redemptionQuantity as Voucher['redemptionQuantity'],
    redeemedQuantity: i.redeemedQuantity as number,
    redeemedPoints: i.redeemedPoints as number,
    publishCount: i.publishCount as number,
  };
  const optional = v as Record<(typeof OPTIONAL_FIELDS)[number], unknown>;
  for (const name of OPTIONAL_FIELDS) if (i[name] !== undefined) optional[name] = i[name];
  return v;
}

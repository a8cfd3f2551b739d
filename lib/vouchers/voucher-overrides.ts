import { camelize } from '../case.js';
import type { VoucherOverrides } from './voucher-generation.js';
import type { CreateVoucherBody } from './voucher-create.schema.js';

/** The voucher fields a create request and an import item share (an import item has no `validity_hours`). */
type VoucherRequestFields = Pick<
  CreateVoucherBody,
  | 'metadata'
  | 'redemption'
  | 'additional_info'
  | 'start_date'
  | 'expiration_date'
  | 'active'
  | 'discount'
  | 'gift'
  | 'loyalty_card'
  | 'validity_timeframe'
  | 'validity_day_of_week'
> & { validity_hours?: CreateVoucherBody['validity_hours'] };

/** A request's fields as overrides of the new voucher's defaults (campaign or standalone). */
export function voucherOverridesOf(body: VoucherRequestFields, category: VoucherOverrides['category']): VoucherOverrides {
  return {
    category,
    metadata: body.metadata,
    redemptionQuantity: body.redemption ? body.redemption.quantity : undefined,
    additionalInfo: body.additional_info ?? undefined,
    startDate: body.start_date ?? undefined,
    expirationDate: body.expiration_date ?? undefined,
    active: body.active,
    discount: body.discount ? camelize(body.discount) : undefined,
    gift: body.gift ? camelize(body.gift) : undefined,
    loyaltyCard: body.loyalty_card ? camelize(body.loyalty_card) : undefined,
    validityTimeframe: body.validity_timeframe,
    validityDayOfWeek: body.validity_day_of_week,
    validityHours: body.validity_hours === undefined ? undefined : body.validity_hours && camelize(body.validity_hours),
  };
}

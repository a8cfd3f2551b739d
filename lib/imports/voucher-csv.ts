import * as z from '../zod.js';
import { type ImportVoucherItem, importVoucherItem } from '../vouchers/voucher-import.schema.js';
import { columnKey } from './csv-table.js';
import { booleanCell, dateCell, firstIssue, integerCell, numberCell, RowValueError, splitColumns } from './csv-values.js';

/** Columns of POST /v1/vouchers/importCSV (the reference's list), by columnKey. */
const STANDALONE = [
  'Code',
  'Voucher Type',
  'Value',
  'Discount Type',
  'Category',
  'Start Date',
  'Expiration Date',
  'Redemption Limit',
  'Redeemed Quantity',
  'Redeemed Amount',
  'Active',
  'Additional Info',
];
/** Columns of POST /v1/campaigns/{campaignId}/importCSV: the rest comes from the campaign. */
const CAMPAIGN = ['Code', 'Category', 'Active', 'Gift Amount', 'Loyalty Points', 'Redeemed Amount', 'Redeemed Quantity'];

const keysOf = (names: readonly string[]) => new Set(names.map(columnKey));
const STANDALONE_KEYS = keysOf(STANDALONE);
const CAMPAIGN_KEYS = keysOf(CAMPAIGN);
const k = columnKey;

/** The code cell of a row, for naming a failed row. */
export const voucherCodeOf = (values: Record<string, string>): string => {
  for (const [h, v] of Object.entries(values)) if (k(h) === 'code') return v.trim();
  return '';
};

/** Counts of past redemptions are not imported: a voucher here starts unused (docs/decisions.md "CSV imports"). */
function refuseRedeemed(fields: Map<string, string>): void {
  for (const name of ['Redeemed Quantity', 'Redeemed Amount']) {
    const value = fields.get(k(name));
    if (value !== undefined && value !== '0') throw new RowValueError(`${name} is not imported: vouchers start unredeemed (leave it empty or 0)`);
  }
}

function discountOf(kind: string | undefined, value: number): ImportVoucherItem['discount'] {
  if (kind === undefined) throw new RowValueError('Discount Type (PERCENT, AMOUNT or FIXED) is required with a Value');
  switch (kind.toUpperCase()) {
    case 'PERCENT':
      return { type: 'PERCENT', percent_off: value };
    case 'AMOUNT':
      return { type: 'AMOUNT', amount_off: value };
    case 'FIXED':
      return { type: 'FIXED', fixed_amount: value };
    default:
      throw new RowValueError(`Discount Type must be PERCENT, AMOUNT or FIXED, got ${JSON.stringify((kind ?? '').slice(0, 20))}`);
  }
}

/** The checked import item, or the schema's first complaint as the row's failure. */
function checked(item: Record<string, unknown>): ImportVoucherItem {
  const result = z.safeParse(importVoucherItem, item);
  if (!result.success) throw new RowValueError(firstIssue(result.error.issues));
  return result.data;
}

/**
 * A row of a standalone voucher file as the JSON import's item (lib/vouchers/voucher-import.schema.ts).
 * `Value` is the benefit in the JSON API's units: percent, or amount in the currency's smallest
 * unit, the gift card's amount, the loyalty card's points. Unknown columns become metadata (text).
 * @throws RowValueError for a value the row cannot take.
 */
export function standaloneVoucherRow(values: Record<string, string>): ImportVoucherItem {
  const { fields, metadata } = splitColumns(values, STANDALONE_KEYS);
  refuseRedeemed(fields);
  const code = fields.get('code');
  if (code === undefined) throw new RowValueError('Code is required');
  const typeCell = fields.get(k('Voucher Type'))?.toUpperCase();
  if (typeCell !== undefined && !['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'].includes(typeCell))
    throw new RowValueError(`Voucher Type must be DISCOUNT_VOUCHER, GIFT_VOUCHER or LOYALTY_CARD, got ${JSON.stringify(typeCell.slice(0, 20))}`);
  const type = (typeCell ?? 'DISCOUNT_VOUCHER') as NonNullable<ImportVoucherItem['type']>;
  const valueCell = fields.get('value');
  if (valueCell === undefined) throw new RowValueError('Value is required (the discount, the gift amount or the loyalty points)');
  const benefit =
    type === 'GIFT_VOUCHER'
      ? { gift: { amount: integerCell('Value', valueCell) } }
      : type === 'LOYALTY_CARD'
        ? { loyalty_card: { points: integerCell('Value', valueCell) } }
        : { discount: discountOf(fields.get(k('Discount Type')), numberCell('Value', valueCell)) };
  const limit = fields.get(k('Redemption Limit'));
  const start = fields.get(k('Start Date'));
  const end = fields.get(k('Expiration Date'));
  const active = fields.get('active');
  const info = fields.get(k('Additional Info'));
  return checked({
    code,
    type,
    ...benefit,
    ...(fields.has('category') ? { category: fields.get('category') } : {}),
    ...(start !== undefined ? { start_date: dateCell('Start Date', start) } : {}),
    ...(end !== undefined ? { expiration_date: dateCell('Expiration Date', end) } : {}),
    ...(limit !== undefined ? { redemption: { quantity: integerCell('Redemption Limit', limit) } } : {}),
    ...(active !== undefined ? { active: booleanCell('Active', active) } : {}),
    ...(info !== undefined ? { additional_info: info } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  });
}

/**
 * A row of a campaign's voucher file: the code, and what may differ per voucher (category, active,
 * a gift card's amount, a loyalty card's points); type, discount and dates are the campaign's.
 * @throws RowValueError for a value the row cannot take.
 */
export function campaignVoucherRow(values: Record<string, string>): ImportVoucherItem {
  const { fields, metadata } = splitColumns(values, CAMPAIGN_KEYS);
  refuseRedeemed(fields);
  const code = fields.get('code');
  if (code === undefined) throw new RowValueError('Code is required');
  const gift = fields.get(k('Gift Amount'));
  const points = fields.get(k('Loyalty Points'));
  const active = fields.get('active');
  return checked({
    code,
    ...(gift !== undefined ? { gift: { amount: integerCell('Gift Amount', gift) } } : {}),
    ...(points !== undefined ? { loyalty_card: { points: integerCell('Loyalty Points', points) } } : {}),
    ...(fields.has('category') ? { category: fields.get('category') } : {}),
    ...(active !== undefined ? { active: booleanCell('Active', active) } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  });
}

import * as z from './zod.js';

/*
 * Request fields for features this service does not have. An empty value asks for nothing and is
 * accepted; anything else would restrict who may use what (a validation rule, an area or store),
 * and ignoring it would let a voucher apply more widely than the client asked, so it is refused.
 * docs/decisions.md "Request fields the reference documents" lists them.
 */

/**
 * A field the reference documents whose meaning this service lacks, where dropping it (as a key the
 * schema does not name would be, lib/http/lenient.ts) would change what a voucher gives or where it
 * applies: any value is refused with `why`; `null` is absent, as everywhere.
 */
export const refusedField = (why: string) => z.optional(z.never({ error: `is not supported here: ${why}` }));

/** `validation_rules` on a campaign, a promotion tier or a reward assignment: no rules exist here. */
export const noValidationRules = z.array(z.string()).check(z.maxLength(0, 'must be empty: validation rules do not exist in this service'));

const noAreas = z.array(z.string()).check(z.maxLength(0, 'must be empty: areas and stores do not exist in this service'));
const areaIds = z.array(z.string().check(z.maxLength(100))).check(z.maxLength(1000));

/**
 * A campaign's `access_settings`: assigning areas or stores is refused (there are none); unassigning
 * is accepted and changes nothing (nothing is ever assigned).
 */
export const accessSettingsSchema = z.strictObject({
  assign: z.optional(z.strictObject({ areas_ids: z.optional(noAreas), area_stores_ids: z.optional(noAreas), area_all_stores_ids: z.optional(noAreas) })),
  unassign: z.optional(z.strictObject({ areas_ids: z.optional(areaIds), area_stores_ids: z.optional(areaIds), area_all_stores_ids: z.optional(areaIds) })),
});

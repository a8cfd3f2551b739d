import { BadRequestError } from '../errors.js';

const deprecated = (call: string): BadRequestError =>
  new BadRequestError(
    'deprecated_endpoint',
    'Deprecated endpoint',
    `${call} is the deprecated qualification and is not served: send the customer and order to POST /v1/qualifications (check-eligibility), which answers the same question`,
  );

/**
 * POST /v1/vouchers/qualification, deprecated by the reference in favour of POST /v1/qualifications.
 * @throws BadRequestError `deprecated_endpoint`, always (docs/decisions.md "The deprecated qualification calls").
 */
export function examineVouchersQualification(): never {
  throw deprecated('POST /v1/vouchers/qualification');
}

/**
 * POST /v1/campaigns/qualification, deprecated by the reference in favour of POST /v1/qualifications.
 * @throws BadRequestError `deprecated_endpoint`, always (docs/decisions.md "The deprecated qualification calls").
 */
export function examineCampaignQualification(): never {
  throw deprecated('POST /v1/campaigns/qualification');
}

import type { CustomerAddress, CustomerFields } from './customer.js';
import type { CustomerInput } from './customer.schema.js';

/** The simple customer of event replies: `name`, `email` and `source_id` only when set. */
export const toSimpleCustomerReply = (c: {
  id: string;
  name: string | null;
  email: string | null;
  sourceId: string | null;
  metadata: Record<string, unknown>;
}) => ({
  id: c.id,
  ...(c.name !== null ? { name: c.name } : {}),
  ...(c.email !== null ? { email: c.email } : {}),
  ...(c.sourceId !== null ? { source_id: c.sourceId } : {}),
  metadata: c.metadata,
  object: 'customer' as const,
});

function addressOf(a: NonNullable<CustomerInput['address']>): CustomerAddress {
  return {
    ...(a.city !== undefined ? { city: a.city } : {}),
    ...(a.state !== undefined ? { state: a.state } : {}),
    ...(a.line_1 !== undefined ? { line1: a.line_1 } : {}),
    ...(a.line_2 !== undefined ? { line2: a.line_2 } : {}),
    ...(a.country !== undefined ? { country: a.country } : {}),
    ...(a.postal_code !== undefined ? { postalCode: a.postal_code } : {}),
  };
}

/** The fields a request sets (wire → domain); absent ones stay absent. */
export function customerFieldsOf(input: CustomerInput): CustomerFields {
  const birthdate = input.birthdate ?? input.birthday;
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    ...(birthdate !== undefined ? { birthdate } : {}),
    ...(input.address !== undefined ? { address: input.address === null ? null : addressOf(input.address) } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
  };
}

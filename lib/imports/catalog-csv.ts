import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { createProductBody, createSkuBody } from '../products/product.schema.js';
import { columnKey } from './csv-table.js';
import { firstIssue, integerCell, RowValueError, splitColumns } from './csv-values.js';

const keysOf = (names: readonly string[]) => new Set(names.map(columnKey));
const PRODUCT_KEYS = keysOf(['name', 'source_id', 'price', 'attributes', 'image_url']);
const SKU_KEYS = keysOf(['product_id', 'sku', 'source_id', 'price', 'currency', 'image_url', 'attributes']);
const CUSTOMER_KEYS = keysOf([
  'Id',
  'Name',
  'Email',
  'Phone',
  'Birthdate',
  'Source_id',
  'Address_line_1',
  'Address_line_2',
  'Address_Postal_Code',
  'Address_City',
  'Address_State',
  'Address_Country',
  'Description',
]);

/** The source id cell of a row, for naming a failed row. */
export const sourceIdOf = (values: Record<string, string>): string => {
  for (const [h, v] of Object.entries(values)) if (columnKey(h) === 'sourceid') return v.trim();
  return '';
};

function checked<S extends z.core.$ZodType>(schema: S, value: Record<string, unknown>): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new RowValueError(firstIssue(result.error.issues));
  return result.data;
}

const withMetadata = (metadata: Record<string, string>) => (Object.keys(metadata).length > 0 ? { metadata } : {});

/**
 * A row of POST /v1/products/importCSV as POST /v1/products' body: `name` required, `price` an
 * integer (smallest unit), `attributes` names separated by commas; other columns are metadata.
 * @throws RowValueError.
 */
export function productRow(values: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = splitColumns(values, PRODUCT_KEYS);
  const name = fields.get('name');
  if (name === undefined) throw new RowValueError('name is required');
  const price = fields.get('price');
  const attributes = fields.get('attributes');
  return checked(createProductBody, {
    name,
    ...(fields.has('sourceid') ? { source_id: fields.get('sourceid') } : {}),
    ...(price !== undefined ? { price: integerCell('price', price) } : {}),
    ...(attributes !== undefined
      ? {
          attributes: attributes
            .split(',')
            .map((a) => a.trim())
            .filter((a) => a !== ''),
        }
      : {}),
    ...(fields.has('imageurl') ? { image_url: fields.get('imageurl') } : {}),
    ...withMetadata(metadata),
  });
}

/** SKU attributes as the reference's template writes them: JSON, or JSON with single quotes (`{'color':'blue'}`). */
function skuAttributes(text: string): Record<string, unknown> {
  for (const candidate of [text, text.replaceAll("'", '"')]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // the next form
    }
  }
  throw new RowValueError('attributes must be a JSON object, e.g. {"color":"blue"}');
}

/**
 * A row of POST /v1/skus/importCSV: `product_id` (the product's id or source id) and `source_id`
 * required, as POST /v1/products/{productId}/skus' body; other columns are metadata.
 * @throws RowValueError.
 */
export function skuRow(values: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = splitColumns(values, SKU_KEYS);
  const productId = fields.get('productid');
  if (productId === undefined) throw new RowValueError('product_id is required');
  if (!fields.has('sourceid')) throw new RowValueError('source_id is required');
  const price = fields.get('price');
  const attributes = fields.get('attributes');
  const body = checked(createSkuBody, {
    source_id: fields.get('sourceid'),
    ...(fields.has('sku') ? { sku: fields.get('sku') } : {}),
    ...(price !== undefined ? { price: integerCell('price', price) } : {}),
    ...(fields.has('currency') ? { currency: fields.get('currency') } : {}),
    ...(attributes !== undefined ? { attributes: skuAttributes(attributes) } : {}),
    ...(fields.has('imageurl') ? { image_url: fields.get('imageurl') } : {}),
    ...withMetadata(metadata),
  });
  if (productId.length > 1500) throw new RowValueError('product_id is longer than 1500 characters');
  return { ...body, product_id: productId };
}

/**
 * A row of POST /v1/customers/importCSV as POST /v1/customers' body: `Source_id` finds the
 * customer to update (or makes it), `Id` names an existing one; the address columns make
 * `address`; other columns are metadata.
 * @throws RowValueError.
 */
export function customerRow(values: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = splitColumns(values, CUSTOMER_KEYS);
  const address = Object.fromEntries(
    (
      [
        ['line_1', 'addressline1'],
        ['line_2', 'addressline2'],
        ['postal_code', 'addresspostalcode'],
        ['city', 'addresscity'],
        ['state', 'addressstate'],
        ['country', 'addresscountry'],
      ] as const
    ).flatMap(([field, key]) => (fields.has(key) ? [[field, fields.get(key)]] : [])),
  );
  const plain = (['id', 'name', 'email', 'phone', 'birthdate', 'description'] as const).flatMap((f) => (fields.has(f) ? [[f, fields.get(f)]] : []));
  return checked(customerInput, {
    ...Object.fromEntries(plain),
    ...(fields.has('sourceid') ? { source_id: fields.get('sourceid') } : {}),
    ...(Object.keys(address).length > 0 ? { address } : {}),
    ...withMetadata(metadata),
  });
}

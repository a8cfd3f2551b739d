import { describe, expect, it } from 'vitest';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { systemClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const runtime = testRuntime({ clock: systemClock });

async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const run = async (operationId: string, file: string, status: number) => {
    const reply = await api.call(operationId, { multipart: { file } });
    expect(reply.status).toBe(status);
    const job = jobs.sent.splice(0)[0];
    if (!job) throw new Error('no job');
    await makeJobsWorker({ runtime })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
    return (await api.call('get-async-action', { params: { asyncActionId: reply.json.async_action_id as string } })).json;
  };
  return { api, jobs, run };
}

describe('POST /v1/products/importCSV and POST /v1/skus/importCSV', () => {
  it('upserts products by source_id and then their SKUs; a row without a name, a bad price or an unknown product is a failure with its line', async () => {
    const { api, run } = await setup();
    expect((await api.call('create-product', { json: { source_id: 'phone', name: 'Old name', price: 1 } })).status).toBe(200);
    const products = await run(
      'import-products-using-csv',
      'name,source_id,price,attributes,image_url,Vendor\r\nPhone,phone,220000,"color,memory",,Acme\r\n,nameless,1,,,\r\nCase,case,cheap,,,\r\nCover,cover,900,,,\r\n',
      200,
    );
    expect(products).toMatchObject({
      type: 'PRODUCTS.IMPORT_CSV',
      status: 'DONE',
      result: {
        message: 'Imported 2 products; 2 failed.',
        done_count: 2,
        failed: [
          { line: 3, code: 'nameless', reason: 'name is required' },
          { line: 4, code: 'case', reason: 'price must be a whole number, got "cheap"' },
        ],
      },
    });
    expect((await api.call('get-product', { params: { productId: 'phone' } })).json).toMatchObject({
      name: 'Phone',
      price: 220000,
      attributes: ['color', 'memory'],
      metadata: { Vendor: 'Acme' },
    });
    const skus = await run(
      'import-SKUs-using-csv',
      `product_id,sku,source_id,price,attributes\nphone,Black 64,phone-b64,230000,"{'color':'black'}"\nnothing,X,x-1,1,\ncover,Red,cover-red,,\n`,
      200,
    );
    expect(skus).toMatchObject({
      type: 'SKUS.IMPORT_CSV',
      status: 'DONE',
      result: { done_count: 2, failed_count: 1, failed: [{ line: 3, code: 'x-1', reason: expect.stringMatching(/nothing/) }] },
    });
    expect((await api.call('get-sku', { params: { skuId: 'phone-b64' } })).json).toMatchObject({
      sku: 'Black 64',
      price: 230000,
      attributes: { color: 'black' },
    });
  });
});

describe('POST /v1/customers/importCSV', () => {
  it('upserts customers by Source_id with their address columns, other columns as metadata; a bad birthdate is a failure; a broken file is a 400 naming its line', async () => {
    const { api, jobs, run } = await setup();
    expect((await api.call('create-customer', { json: { source_id: 'ann', name: 'Old', metadata: { keep: 'yes' } } })).status).toBe(200);
    const file = [
      'Name,Email,Source_id,Address_City,Address_Country,Birthdate,Favourite',
      'Ann,ann@example.com,ann,Oslo,Norway,1990-05-01,tea',
      'Bob,,bob,,,not-a-date,',
      'Cy,cy@example.com,cy,,,,coffee',
      'Ann Again,,ann,,,,',
    ].join('\n');
    const action = await run('import-customers-using-csv', file, 202);
    expect(action).toMatchObject({
      type: 'CUSTOMERS.IMPORT_CSV',
      status: 'DONE',
      result: { done_count: 3, failed_count: 1, failed: [{ line: 3, code: 'bob' }] },
    });
    // Rows apply in file order: the later row with the same source id wins its fields; metadata is replaced as POST /v1/customers does.
    expect((await api.call('get-customer', { params: { customerId: 'ann' } })).json).toMatchObject({
      name: 'Ann Again',
      email: 'ann@example.com',
      address: { city: 'Oslo', country: 'Norway' },
      birthdate: '1990-05-01',
      metadata: { Favourite: 'tea' },
    });
    expect((await api.call('list-customers', { query: 'limit=10' })).json.total).toBe(2);
    const broken = await api.call('import-customers-using-csv', { multipart: { file: 'Name,Source_id\nA,a\n"B,b\n' } });
    expect(broken.status).toBe(400);
    expect(broken.json.details).toContain('Line 3');
    expect(jobs.sent).toEqual([]);
  });
});

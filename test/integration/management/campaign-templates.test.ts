import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies } from '../../support/api.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const credentials = managementHeaders(await newManagementKey(runtime));
  const management = apiClient({ runtime }, credentials);
  const [a, b] = await Promise.all([newProject(runtime, 'templates A'), newProject(runtime, 'templates B')]);
  const apiA = apiClient({ runtime }, keyPairHeaders(a));
  const apiB = apiClient({ runtime }, keyPairHeaders(b));
  const category = await apiA.call('create-category', { json: { name: 'A only', hierarchy: 1 } });
  const campaign = await apiA.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Spring'), category_id: category.json.id } });
  expect(campaign.status, JSON.stringify(campaign.json)).toBe(200);
  const template = await apiA.call('create-campaign-template', { json: { name: 'Spring template', description: 'ten off', campaign_id: campaign.json.id } });
  expect(template.status, JSON.stringify(template.json)).toBe(200);
  return { credentials, management, apiA, apiB, a: a.project_id, b: b.project_id, templateId: template.json.id as string };
}

describe('Campaign templates through the Management API', () => {
  it("lists a project's templates as GET /v1/templates/campaigns does, and none of another project's", async () => {
    const { management, apiA, a, b, templateId } = await setup();
    const listed = await management.call('management-list-campaign-templates', { params: { projectId: a }, query: 'include_total=true' });
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    expect(listed.json).toEqual((await apiA.call('list-campaign-templates', { query: 'include_total=true' })).json);
    expect(listed.json).toMatchObject({ data: [{ id: templateId, name: 'Spring template' }], total: 1, has_more: false });
    expect((await management.call('management-list-campaign-templates', { params: { projectId: b } })).json).toMatchObject({ data: [], has_more: false });
  });

  it('copies a template to another project, where a campaign can be made from it; the source stays', async () => {
    const { management, apiA, apiB, a, b, templateId } = await setup();
    const copied = await management.call('management-copy-campaign-template', {
      params: { projectId: a, campaignTemplateId: templateId },
      json: { name: 'Spring in B', destination_project_id: b },
    });
    expect(copied.status, JSON.stringify(copied.json)).toBe(200);
    expect(copied.json).toEqual({
      id: expect.stringMatching(/^camp_tpl_/),
      name: 'Spring in B',
      campaign_type: 'DISCOUNT_COUPONS',
      created_at: expect.any(String),
      object: 'campaign_template',
    });
    expect(copied.json.id).not.toBe(templateId);
    const copyId = copied.json.id as string;
    expect((await apiB.call('get-campaign-template', { params: { campaignTemplateId: copyId } })).json).toEqual(copied.json);
    expect((await apiA.call('get-campaign-template', { params: { campaignTemplateId: copyId } })).status).toBe(404);
    expect((await apiA.call('get-campaign-template', { params: { campaignTemplateId: templateId } })).json).toMatchObject({ name: 'Spring template' });
    const made = await apiB.call('create-campaign-from-template', { params: { campaignTemplateId: copyId }, json: { name: 'Spring B' } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const campaign = made.json.campaign as Record<string, unknown>;
    expect(campaign).toMatchObject({ name: 'Spring B', campaign_type: 'DISCOUNT_COUPONS' });
    // The source's category is project A's: the copy does not carry it.
    expect(campaign.category_id ?? null).toBeNull();
  });

  it('refuses a name taken in the destination with 409, and a missing template, source or destination project with 404', async () => {
    const { management, a, b, templateId } = await setup();
    const copy = (projectId: string, campaignTemplateId: string, destination: string, name = 'Copy') =>
      management.call('management-copy-campaign-template', { params: { projectId, campaignTemplateId }, json: { name, destination_project_id: destination } });
    expect((await copy(a, templateId, b)).status).toBe(200);
    expect((await copy(a, templateId, b)).json).toMatchObject({
      code: 409,
      key: 'duplicate_found',
      details: 'Duplicated campaign_template exists with name Copy',
    });
    expect((await copy(a, templateId, a, 'Spring template')).status).toBe(409);
    expect((await copy(a, 'camp_tpl_nope', b, 'Other')).json).toMatchObject({ code: 404, resource_type: 'campaign_template' });
    // A's template under B's id is not found: templates are per project.
    expect((await copy(b, templateId, b, 'Other')).json).toMatchObject({ code: 404, resource_type: 'campaign_template' });
    expect((await copy(a, templateId, 'proj_nope', 'Other')).json).toMatchObject({ code: 404, resource_type: 'project', resource_id: 'proj_nope' });
    expect((await management.call('delete-project', { params: { projectId: b } })).status).toBe(204);
    expect((await copy(a, templateId, b, 'Other')).json).toMatchObject({ code: 404, resource_type: 'project', resource_id: b });
    for (const projectId of ['proj_nope', b]) {
      expect((await copy(projectId, templateId, a, 'Other')).json).toMatchObject({ code: 404, resource_type: 'project', resource_id: projectId });
      expect((await management.call('management-list-campaign-templates', { params: { projectId } })).json).toMatchObject({
        code: 404,
        resource_type: 'project',
      });
    }
  });

  it('replays a copy sent again with the same Idempotency-Key instead of refusing it as a duplicate', async () => {
    const { management, credentials, a, b, templateId } = await setup();
    const request = {
      params: { projectId: a, campaignTemplateId: templateId },
      json: { name: 'Once', destination_project_id: b },
      headers: { ...credentials, 'idempotency-key': `copy-${templateId}` },
    };
    const first = await management.call('management-copy-campaign-template', request);
    const second = await management.call('management-copy-campaign-template', request);
    expect(first.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
  });
});

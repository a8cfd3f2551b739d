import * as z from '../zod.js';

/*
 * Request schemas of the Management API's campaign templates
 * (/management/v1/projects/{projectId}/templates/campaigns[/{campaignTemplateId}/copy]); the list's
 * query is GET /v1/templates/campaigns' own (listCampaignTemplatesQuery).
 */

const projectId = z.string().check(z.minLength(1), z.maxLength(100));

export const managementTemplateListParams = z.strictObject({ projectId });
export const managementTemplateParams = z.strictObject({ projectId, campaignTemplateId: z.string().check(z.minLength(1), z.maxLength(200)) });

/** management-copy-campaign-template: the copy's name and description in the destination project. */
export const copyCampaignTemplateBody = z.strictObject({
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
  destination_project_id: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(100)),
});
export type CopyCampaignTemplateBody = z.output<typeof copyCampaignTemplateBody>;

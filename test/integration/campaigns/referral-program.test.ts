import { describe, expect, it } from 'vitest';
import { campaignApi, campaignBodies } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const events = eventApi(runtime, pair);
  const campaigns = campaignApi(runtime, pair);
  const schema = await events.createSchema(schemaBody('user_subscribed'));
  return { campaigns, schemaId: schema.json.id as string };
}

const withProgram = (name: string, referral_program: unknown) => ({ ...campaignBodies.REFERRAL_PROGRAM(name), referral_program });

describe('POST /v1/campaigns: a referral program converting on a custom event', () => {
  it('names the custom event by id or by name, and replies with both', async () => {
    const { campaigns, schemaId } = await setup();
    for (const [name, customEvent] of [
      ['By id', { id: schemaId }],
      ['By name', { name: 'user_subscribed' }],
      ['By both', { id: schemaId, name: 'user_subscribed' }],
    ] as const) {
      const reply = await campaigns.createCampaign(withProgram(name, { conversion_event_type: 'custom_event', custom_event: customEvent }));
      expect(reply.status).toBe(200);
      expect(reply.json.referral_program).toEqual({ conversion_event_type: 'custom_event', custom_event: { id: schemaId, name: 'user_subscribed' } });
      expect((await campaigns.getCampaign(name)).json.referral_program).toEqual(reply.json.referral_program);
    }
  });

  it('refuses a custom event the project has not defined with 404 custom_event_schema, creating nothing', async () => {
    const { campaigns } = await setup();
    const reply = await campaigns.createCampaign(withProgram('Nope', { conversion_event_type: 'custom_event', custom_event: { name: 'User_Subscribed' } }));
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ resource_type: 'custom_event_schema', resource_id: 'User_Subscribed' });
    expect((await campaigns.getCampaign('Nope')).status).toBe(404);
  });

  it.each([
    ['no custom_event', { conversion_event_type: 'custom_event' }],
    ['a custom_event with neither id nor name', { conversion_event_type: 'custom_event', custom_event: {} }],
    ['an id and a name of different events', { conversion_event_type: 'custom_event', custom_event: { id: 'SCHEMA', name: 'other' } }],
    ['a custom_event on a redemption program', { conversion_event_type: 'redemption', custom_event: { name: 'user_subscribed' } }],
  ])('refuses %s with 400 invalid_payload', async (_what, program) => {
    const { campaigns, schemaId } = await setup();
    const body = JSON.parse(JSON.stringify(program).replace('SCHEMA', schemaId)) as unknown;
    const reply = await campaigns.createCampaign(withProgram('Bad', body));
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect(reply.json.details).toContain('referral_program.custom_event');
  });
});

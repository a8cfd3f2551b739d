/**
 * The project the request-side check runs against: a category, a product with a SKU, campaigns of each kind, vouchers,
 * a loyalty card, a referral code, customers, a reward, a custom event schema, an async action, a
 * bin entry, an access token and a finished export, all made through the API itself. `$seed.<name>` placeholders
 * name them; `$fresh.<name>` ones make a new one per use (for operations that consume what they
 * name: deletes, revocation, one assignment per reward and campaign).
 */

export interface HttpRequest {
  cluster: 'api' | 'download';
  method: string;
  /** Path and query string. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sends one request to the service (over HTTP to the local runtime, or to a handler in process). */
export type Send = (request: HttpRequest) => Promise<HttpReply>;

export interface Seeds {
  /** `$seed.<name>` → value. */
  values: Record<string, string>;
  /** `$fresh.<name>` → a maker of a new one. */
  fresh: Record<string, () => Promise<string>>;
}

type Body = Record<string, unknown>;

/** A JSON API call that must succeed; its parsed reply. @throws Error naming the call and the reply otherwise. */
async function call(send: Send, method: string, path: string, body?: Body, form?: Record<string, string>): Promise<Body> {
  const reply = await send({
    cluster: 'api',
    method,
    path,
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : body ? { 'content-type': 'application/json' } : {},
    ...(form ? { body: new URLSearchParams(form).toString() } : body ? { body: JSON.stringify(body) } : {}),
  });
  if (reply.status >= 300) throw new Error(`seeding ${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
  return reply.text ? (JSON.parse(reply.text) as Body) : {};
}

const str = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new Error(`seeding: ${what} missing`);
  return value;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A campaign of each type, as `$fresh` makes them (a name is added per use). */
const freshBodies: Record<'discount' | 'referral' | 'gift' | 'loyalty' | 'promotion', Body> = {
  discount: { campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } },
  referral: { campaign_type: 'REFERRAL_PROGRAM', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
  gift: { campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } },
  loyalty: { campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 1000 } } },
  promotion: { campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'compat-fresh-tier', action: { discount: { type: 'PERCENT', percent_off: 5 } } }] } },
};

/** Makes the seeded project's resources (`send` carries the project's unrestricted key pair). */
export async function seedProject(send: Send): Promise<Seeds> {
  let n = 0;
  const name = (prefix: string): string => `${prefix}-${++n}`;
  const campaign = async (body: Body): Promise<Body> => call(send, 'POST', '/v1/campaigns', body);

  const category = await call(send, 'POST', '/v1/categories', { name: 'compat-category', hierarchy: 1 });
  const schema = await call(send, 'POST', '/v1/custom-event-schemas', { name: 'compat_event', schema: { properties: {} } });
  const eventName = str(schema.name, 'event schema name');
  const discount = await campaign({
    name: 'compat-discount',
    campaign_type: 'DISCOUNT_COUPONS',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
  });
  const gift = await campaign({ name: 'compat-gift', campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } });
  const loyalty = await campaign({
    name: 'compat-loyalty',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 1000 } },
  });
  const promotion = await campaign({
    name: 'compat-promotion',
    campaign_type: 'PROMOTION',
    promotion: { tiers: [{ name: 'compat-tier', action: { discount: { type: 'PERCENT', percent_off: 5 } } }] },
  });
  const referral = await campaign({
    name: 'compat-referral',
    campaign_type: 'REFERRAL_PROGRAM',
    referral_program: { conversion_event_type: 'custom_event', custom_event: { name: eventName } },
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
  });
  const discountId = str(discount.id, 'discount campaign id');
  const loyaltyId = str(loyalty.id, 'loyalty campaign id');
  const tiers = (promotion.promotion as { tiers?: Array<{ id?: string }> } | undefined)?.tiers ?? [];

  const voucher = (campaignId: string): Promise<Body> => call(send, 'POST', `/v1/campaigns/${campaignId}/vouchers`, {});
  const card = await voucher(loyaltyId);
  const referralCode = await voucher(str(referral.id, 'referral campaign id'));
  const customer = await call(send, 'POST', '/v1/customers', { source_id: 'compat-customer', name: 'Compat Customer' });
  const referrer = await call(send, 'POST', '/v1/customers', { source_id: 'compat-referrer' });
  const order = await call(send, 'POST', '/v1/orders', { source_id: 'compat-order', amount: 1000 });
  // A referral code published to the referrer (referees are added to published codes only); fresh holders are referees of it.
  const referralCampaignId = str(referral.id, 'referral campaign id');
  const publishedReferralCode = str((await voucher(referralCampaignId)).code, 'referral code');
  await call(send, 'POST', '/v1/publications', { customer: { id: str(referrer.id, 'referrer id') }, voucher: publishedReferralCode });
  // A redemption of a new code of the discount campaign: its parent and its one child.
  const redemption = async (): Promise<{ parent: string; child: string }> => {
    const code = str((await voucher(discountId)).code, 'voucher code');
    const made = await call(send, 'POST', '/v1/redemptions', { redeemables: [{ object: 'voucher', id: code }], order: { amount: 1000 } });
    const parent = made.parent_redemption as Body | undefined;
    return { parent: str(parent?.id, 'parent redemption id'), child: str((made.redemptions as Body[] | undefined)?.[0]?.id, 'redemption id') };
  };
  const seededRedemption = await redemption();
  const bulk = await send({
    cluster: 'api',
    method: 'POST',
    path: `/v1/campaigns/${discountId}/vouchers?vouchers_count=2`,
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (bulk.status !== 202) throw new Error(`seeding: bulk generation answered ${bulk.status}: ${bulk.text}`);
  const reward = (): Promise<Body> =>
    call(send, 'POST', '/v1/rewards', { name: name('compat-reward'), parameters: { campaign: { id: str(gift.id, 'gift campaign id'), balance: 100 } } });
  const coinReward = (): Promise<Body> =>
    call(send, 'POST', '/v1/rewards', { name: name('compat-coin-reward'), parameters: { coin: { exchange_ratio: 0.5, points_ratio: 10 } } });
  const token = (): Promise<Body> => call(send, 'POST', '/v1/oauth/token', undefined, { grant_type: 'client_credentials', scope: 'api' });
  // A bin entry: a voucher moved to the bin.
  const binned = str((await voucher(discountId)).code, 'voucher code');
  const deleted = await send({ cluster: 'api', method: 'DELETE', path: `/v1/vouchers/${encodeURIComponent(binned)}` });
  if (deleted.status !== 204) throw new Error(`seeding: deleting a voucher answered ${deleted.status}: ${deleted.text}`);
  const bin = (await call(send, 'GET', '/v1/trash-bin')).data as Array<{ id?: unknown }> | undefined;
  const madeReward = await reward();
  // A reward the seeded loyalty card (1,000 points) can redeem many times: a product at 1 point.
  const loyaltyReward = await call(send, 'POST', '/v1/rewards', {
    name: name('compat-loyalty-reward'),
    type: 'MATERIAL',
    parameters: { product: { id: 'prod_compat' } },
  });
  await call(send, 'POST', `/v1/rewards/${str(loyaltyReward.id, 'reward id')}/assignments`, { campaign: loyaltyId, parameters: { loyalty: { points: 1 } } });
  const earningRule = async (): Promise<string> => {
    const rules = [{ event: eventName, loyalty: { type: 'FIXED', points: 1 } }] as unknown as Body;
    const made = (await call(send, 'POST', `/v1/loyalties/${loyaltyId}/earning-rules`, rules)) as unknown as Body[];
    return str(made[0]?.id, 'earning rule id');
  };
  const madeEarningRule = await earningRule();
  // A tier of the seeded program far above any balance the requests give its cards: it changes no price or earning.
  const madeTiers = (await call(send, 'POST', `/v1/loyalties/${loyaltyId}/tiers`, [
    { name: 'compat-tier', points: { from: 1_000_000_000 } },
  ] as unknown as Body)) as unknown as Body[];
  // The seeded reward on the seeded loyalty program; fresh ones put a new reward on it.
  const assign = async (rewardId: string, campaignId = loyaltyId): Promise<string> =>
    str(
      (await call(send, 'POST', `/v1/rewards/${rewardId}/assignments`, { campaign: campaignId, parameters: { loyalty: { points: 10 } } })).id,
      'assignment id',
    );
  const madeAssignment = await assign(str(madeReward.id, 'reward id'));
  const madeToken = await token();
  const template = (body: Body): Promise<Body> => call(send, 'POST', '/v1/templates/campaigns', { name: name('compat-template'), ...body });
  const campaignTemplate = await template({ campaign_id: discountId });
  const tierTemplate = await template({ promotion_tier_id: str(tiers[0]?.id, 'promotion tier id') });
  const giftCard = await voucher(str(gift.id, 'gift campaign id'));
  const giftCardCode = str(giftCard.code, 'gift card code');
  await call(send, 'POST', `/v1/vouchers/${encodeURIComponent(giftCardCode)}/balance`, { amount: 100 });
  const giftTransactions = (await call(send, 'GET', `/v1/vouchers/${encodeURIComponent(giftCardCode)}/transactions`)).data as
    | Array<{ id?: unknown }>
    | undefined;
  // A loyalty card transaction: the cursor of the card and program transaction lists.
  const cardCode = str(card.code, 'loyalty card code');
  await call(send, 'POST', `/v1/loyalties/${loyaltyId}/members/${encodeURIComponent(cardCode)}/balance`, { points: 10 });
  const cardTransactions = (await call(send, 'GET', `/v1/loyalties/members/${encodeURIComponent(cardCode)}/transactions`)).data as
    | Array<{ id?: unknown }>
    | undefined;
  // Two cards of one holder, in two programs of 1,000 points a card: a transfer's target and its source.
  const transferCard = async (programName: string): Promise<{ campaignId: string; code: string }> => {
    const program = await campaign({ ...freshBodies.loyalty, name: programName });
    const campaignId = str(program.id, 'loyalty campaign id');
    const code = str((await voucher(campaignId)).code, 'loyalty card code');
    await call(send, 'POST', `/v1/loyalties/${campaignId}/members`, { voucher: code, customer: { source_id: 'compat-transfer-holder' } });
    return { campaignId, code };
  };
  const transferTarget = await transferCard('compat-transfer-target');
  const transferSource = await transferCard('compat-transfer-source');

  // A program whose order.paid rule holds its points (pending points), and its card held by a customer of its own: each
  // fresh entry is one more paid order of that customer (no other customer holds a card of it, so no other order earns).
  const pendingProgramId = str((await campaign({ ...freshBodies.loyalty, name: 'compat-pending' })).id, 'loyalty campaign id');
  const pendingRule = [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 5 }, pending_points: { period_type: 'DAY', period_value: 30 } }];
  await call(send, 'POST', `/v1/loyalties/${pendingProgramId}/earning-rules`, pendingRule as unknown as Body);
  const pendingCardCode = str((await voucher(pendingProgramId)).code, 'loyalty card code');
  await call(send, 'POST', `/v1/loyalties/${pendingProgramId}/members`, { voucher: pendingCardCode, customer: { source_id: 'compat-pending-holder' } });
  const handedOut = new Set<string>();
  const pendingEntry = async (): Promise<string> => {
    await call(send, 'POST', '/v1/orders', { amount: 1000, customer: { source_id: 'compat-pending-holder' }, status: 'PAID' });
    const list = (await call(send, 'GET', `/v1/loyalties/members/${encodeURIComponent(pendingCardCode)}/pending-points?limit=100`)).data as Body[] | undefined;
    const id = str(
      list?.map((e) => e.id).find((x) => typeof x === 'string' && !handedOut.has(x)),
      'pending points id',
    );
    handedOut.add(id);
    return id;
  };
  // Publications from a campaign take its unpublished codes; an AUTO_UPDATE campaign makes them on demand, so it never runs out.
  const publishing = await campaign({
    name: 'compat-publishing',
    campaign_type: 'DISCOUNT_COUPONS',
    type: 'AUTO_UPDATE',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: { pattern: 'PUB-########' } },
  });

  // A finished export: the jobs worker of the runtime writes the file; its link carries the download token.
  const started = await call(send, 'POST', `/v1/loyalties/${loyaltyId}/points-expiration/export`, {});
  const exportId = str(started.id, 'export id');
  let url = '';
  for (let attempt = 0; attempt < 300 && !url; attempt++) {
    const got = await call(send, 'GET', `/v1/exports/${exportId}`);
    if (got.status === 'ERROR') throw new Error(`seeding: the export failed: ${JSON.stringify(got.result)}`);
    url = typeof (got.result as { url?: unknown } | null)?.url === 'string' ? String((got.result as { url: string }).url) : '';
    if (!url) await sleep(100);
  }
  if (!url) throw new Error('seeding: the export did not finish within 30 s');

  const validationRuleId = str((await call(send, 'POST', '/v1/validation-rules', { name: 'compat-rule' })).id, 'validation rule id');
  const productId = str((await call(send, 'POST', '/v1/products', { source_id: 'compat-product', name: 'Compat product', price: 1000 })).id, 'product id');
  const sku = (): Promise<Body> => call(send, 'POST', `/v1/products/${productId}/skus`, { source_id: name('compat-sku'), sku: 'Compat SKU', price: 900 });
  const skuId = str((await sku()).id, 'sku id');
  const segment = (): Promise<Body> =>
    call(send, 'POST', '/v1/segments', { name: name('compat-segment'), type: 'static', customers: [str(customer.id, 'customer id')] });
  const segmentId = str((await segment()).id, 'segment id');
  const collection = (body: Body): Promise<Body> => call(send, 'POST', '/v1/product-collections', body);
  const productCollectionId = str(
    (
      await collection({
        type: 'STATIC',
        name: 'compat-collection',
        products: [
          { id: productId, object: 'product' },
          { id: skuId, object: 'sku' },
        ],
      })
    ).id,
    'product collection id',
  );
  const autoCollectionId = str((await collection({ type: 'AUTO_UPDATE', name: 'compat-auto', filter: { junction: 'and' } })).id, 'product collection id');

  // A project of the Management API (send carries the local runtime's management key too); fresh ones for the delete.
  const managedProject = (): Promise<Body> =>
    call(send, 'POST', '/management/v1/projects', { name: name('compat-project'), case_sensitive_codes: true, timezone: 'UTC', currency: 'EUR' });
  const projectId = str((await managedProject()).id, 'project id');
  // A metadata schema of the managed project (read by id), and one of a custom object in each dev project (the key pair's
  // project, infra/local/dev-key.ts DEV_PROJECT_NAME: the public read by related object); fresh ones for the delete.
  const metadataSchema = (inProject: string, relatedObject: string): Promise<Body> =>
    call(send, 'POST', `/management/v1/projects/${inProject}/metadata-schemas`, {
      related_object: relatedObject,
      properties: { method: { type: 'string', optional: true, array: false } },
    });
  const metadataSchemaId = str((await metadataSchema(projectId, name('compat-payment'))).id, 'metadata schema id');
  const metadataSchemaResource = name('compat-receipt');
  const projects = (await call(send, 'GET', '/management/v1/projects')).data as Body[];
  for (const p of projects.filter((x) => x.name === 'Local dev project')) await metadataSchema(str(p.id, 'project id'), metadataSchemaResource);
  // The managed project's brand, and users invited into a project (the Management API's users are records with a role).
  const brand = (id: string): Promise<Body> =>
    call(send, 'POST', `/management/v1/projects/${id}/branding`, {
      brand: { name: 'compat-brand' },
      address: { street: 'Main 1', city: 'Warsaw', postal: '00-001', country: 'Poland' },
      contact: { email: 'brand@compat.example' },
    });
  const brandingId = str((await brand(projectId)).id, 'branding id');
  const invitedUser = async (into: string): Promise<{ id: string; login: string }> => {
    const email = `${name('compat-user')}@compat.example`;
    await call(send, 'POST', '/management/v1/projects/users/invite', { email, first_name: 'Compat', last_name: 'User', projects: { [into]: 'USER' } });
    const users = (await call(send, 'GET', `/management/v1/projects/${into}/users`)).data as Array<{ id?: unknown; login?: unknown }> | undefined;
    const found = users?.find((u) => u.login === email);
    return { id: str(found?.id, 'user id'), login: email };
  };
  const seededUser = await invitedUser(projectId);
  // A project whose one brand the delete-brand requests remove, one at a time: a maker waits (its turn, then for the
  // previous request to have deleted its brand) before making the next.
  const brandProjectId = str((await managedProject()).id, 'project id');
  let brandTurn: Promise<unknown> = Promise.resolve();
  const freshBrandOfBrandProject = (): Promise<string> => {
    const made = brandTurn.then(async () => {
      for (let wait = 0; wait < 100; wait += 1) {
        const listed = ((await call(send, 'GET', `/management/v1/projects/${brandProjectId}/branding`)).data ?? []) as Body[];
        if (listed.length === 0) return str((await brand(brandProjectId)).id, 'branding id');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the brand of the delete-brand project was never deleted');
    });
    brandTurn = made.catch(() => undefined);
    return made;
  };

  // The managed project's stacking rules (issue 40: one set per project), and a project of their own whose set the
  // delete-stacking-rules requests remove, one at a time (delete leaves the defaults, listed without an id).
  const stackingRules = (id: string): Promise<Body> => call(send, 'POST', `/management/v1/projects/${id}/stacking-rules`, {});
  const stackingRulesId = str((await stackingRules(projectId)).id, 'stacking rules id');
  const stackingRulesProjectId = str((await managedProject()).id, 'project id');
  let stackingRulesTurn: Promise<unknown> = Promise.resolve();
  const freshStackingRulesOfProject = (): Promise<string> => {
    const made = stackingRulesTurn.then(async () => {
      for (let wait = 0; wait < 100; wait += 1) {
        const listed = ((await call(send, 'GET', `/management/v1/projects/${stackingRulesProjectId}/stacking-rules`)).data ?? []) as Body[];
        if (listed[0]?.id === undefined) return str((await stackingRules(stackingRulesProjectId)).id, 'stacking rules id');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the stacking rules of the delete-stacking-rules project were never deleted');
    });
    stackingRulesTurn = made.catch(() => undefined);
    return made;
  };

  // A promotion stack of the seeded promotion's tier (issue 38), and a fresh one for the request that deletes one.
  const stackOf = async (): Promise<string> =>
    str(
      (
        await call(send, 'POST', `/v1/promotions/${str(promotion.id, 'promotion campaign id')}/stacks`, {
          name: name('compat-stack'),
          tiers: { ids: [str(tiers[0]?.id, 'promotion tier id')] },
        })
      ).id,
      'promotion stack id',
    );
  const promotionStackId = await stackOf();
  // A webhook of that project, to a loopback receiver the local runtime allows (nothing listens: deliveries fail and retry).
  const managedWebhook = async (): Promise<string> =>
    str(
      (await call(send, 'POST', `/management/v1/projects/${projectId}/webhooks`, { target_url: 'http://127.0.0.1:9/compat', events: ['voucher.created'] })).id,
      'webhook id',
    );
  const webhookId = await managedWebhook();

  return {
    values: {
      projectId,
      brandingId,
      brandProjectId,
      stackingRulesId,
      stackingRulesProjectId,
      userId: seededUser.id,
      promotionStackId,
      webhookId,
      validationRuleId,
      productId,
      skuId,
      segmentId,
      productCollectionId,
      autoCollectionId,
      categoryId: str(category.id, 'category id'),
      eventSchemaId: str(schema.id, 'event schema id'),
      metadataSchemaId,
      metadataSchemaResource,
      eventName,
      discountCampaignId: discountId,
      giftCampaignId: str(gift.id, 'gift campaign id'),
      loyaltyCampaignId: loyaltyId,
      loyaltyCampaignName: str(loyalty.name, 'loyalty campaign name'),
      promotionTierId: str(tiers[0]?.id, 'promotion tier id'),
      loyaltyCardCode: str(card.code, 'loyalty card code'),
      transferCampaignId: transferTarget.campaignId,
      transferTargetCode: transferTarget.code,
      transferSourceCode: transferSource.code,
      pendingCampaignId: pendingProgramId,
      pendingCardCode,
      loyaltyCardId: str(card.id, 'loyalty card id'),
      referralCode: str(referralCode.code, 'referral code'),
      voucherCode: str((await voucher(discountId)).code, 'voucher code'),
      customerId: str(customer.id, 'customer id'),
      referrerId: str(referrer.id, 'referrer id'),
      orderId: str(order.id, 'order id'),
      redemptionId: seededRedemption.child,
      parentRedemptionId: seededRedemption.parent,
      asyncActionId: str((JSON.parse(bulk.text) as Body).async_action_id, 'async action id'),
      rewardId: str(madeReward.id, 'reward id'),
      loyaltyRewardId: str(loyaltyReward.id, 'reward id'),
      earningRuleId: madeEarningRule,
      loyaltyTierId: str(madeTiers[0]?.id, 'loyalty tier id'),
      assignmentId: madeAssignment,
      accessToken: str(madeToken.access_token, 'access token'),
      binEntryId: str(bin?.[0]?.id, 'bin entry id'),
      campaignTemplateId: str(campaignTemplate.id, 'campaign template id'),
      tierTemplateId: str(tierTemplate.id, 'tier template id'),
      promotionCampaignId: str(promotion.id, 'promotion campaign id'),
      giftCardCode,
      giftCardTransactionId: str(giftTransactions?.[0]?.id, 'gift card transaction id'),
      loyaltyCardTransactionId: str(cardTransactions?.[0]?.id, 'loyalty card transaction id'),
      publishingCampaignName: str(publishing.name, 'publishing campaign name'),
      exportId,
      exportToken: new URL(url).searchParams.get('token') ?? '',
      publishedReferralCode,
      referralCampaignId,
    },
    fresh: {
      projectId: async () => str((await managedProject()).id, 'project id'),
      metadataSchemaId: async () => str((await metadataSchema(projectId, name('compat-fresh-payment'))).id, 'metadata schema id'),
      // A user of the seeded project, for the request that unassigns it.
      userId: async () => (await invitedUser(projectId)).id,
      // A user of another project only, for the request that assigns it to the seeded project.
      userLogin: async () => (await invitedUser(str((await managedProject()).id, 'project id'))).login,
      promotionStackId: stackOf,
      webhookId: managedWebhook,
      validationRuleId: async () => str((await call(send, 'POST', '/v1/validation-rules', { name: name('compat-fresh-rule') })).id, 'validation rule id'),
      // An assignment of the seeded rule (to a distribution, taken as named), for the request that deletes it.
      validationRuleAssignmentId: async () =>
        str(
          (
            await call(send, 'POST', `/v1/validation-rules/${validationRuleId}/assignments`, {
              related_object_type: 'distribution',
              related_object_id: name('compat-distr'),
            })
          ).id,
          'validation rule assignment id',
        ),
      voucherCode: async () => str((await voucher(discountId)).code, 'voucher code'),
      // An unpublished card of the seeded loyalty program: a join names it once.
      loyaltyCardCode: async () => str((await voucher(loyaltyId)).code, 'loyalty card code'),
      // A code no voucher has yet (nothing is made): for the operations that create a voucher with the code in their path.
      newVoucherCode: async () => name('compat-new-code'),
      // Rollbacks undo one redemption once: each request gets its own.
      redemptionId: async () => (await redemption()).child,
      parentRedemptionId: async () => (await redemption()).parent,
      categoryId: async () => str((await call(send, 'POST', '/v1/categories', { name: name('compat-fresh-category'), hierarchy: 1 })).id, 'category id'),
      productId: async () => str((await call(send, 'POST', '/v1/products', { source_id: name('compat-fresh-product') })).id, 'product id'),
      skuId: async () => str((await sku()).id, 'sku id'),
      segmentId: async () => str((await segment()).id, 'segment id'),
      // A voucher moved to the bin, for the request that deletes its entry for good.
      binEntryId: async () => {
        const code = str((await voucher(discountId)).code, 'voucher code');
        await call(send, 'DELETE', `/v1/vouchers/${encodeURIComponent(code)}`);
        const bin = (await call(send, 'GET', '/v1/trash-bin?limit=100')).data as Body[] | undefined;
        return str(bin?.find((e) => e.resource_name === code)?.id, 'bin entry id');
      },
      productCollectionId: async () => str((await collection({ type: 'STATIC', name: name('compat-fresh-collection') })).id, 'product collection id'),
      customerId: async () => str((await call(send, 'POST', '/v1/customers', { source_id: name('compat-fresh-customer') })).id, 'customer id'),
      referralHolderId: async () =>
        str(
          (
            (await call(send, 'POST', `/v1/referrals/members/${publishedReferralCode}/holders`, { holders: [{ source_id: name('compat-referee') }] }))
              .holders as Body[] | undefined
          )?.[0]?.id,
          'referral holder id',
        ),
      exportId: async () => str((await call(send, 'POST', '/v1/exports', { exported_object: 'order' })).id, 'export id'),
      rewardId: async () => str((await reward()).id, 'reward id'),
      coinRewardId: async () => str((await coinReward()).id, 'reward id'),
      materialRewardId: async () =>
        str(
          (await call(send, 'POST', '/v1/rewards', { name: name('compat-material-reward'), parameters: { product: { id: 'prod_compat' } } })).id,
          'reward id',
        ),
      earningRuleId: earningRule,
      brandProjectBrandingId: freshBrandOfBrandProject,
      stackingRulesProjectStackingRulesId: freshStackingRulesOfProject,
      eventSchemaId: async () =>
        str(
          (await call(send, 'POST', '/v1/custom-event-schemas', { name: name('compat_fresh_event').replace('-', '_'), schema: { properties: {} } })).id,
          'event schema id',
        ),
      // A PENDING entry of the pending program's card: activation, cancellation and adjustments use one each.
      pendingPointsId: pendingEntry,
      // A new reward on the seeded loyalty program: its assignment, and the reward behind it.
      assignmentId: async () => assign(str((await reward()).id, 'reward id')),
      // The seeded reward on a new loyalty program.
      rewardAssignmentId: async () =>
        assign(str(madeReward.id, 'reward id'), str((await campaign({ ...freshBodies.loyalty, name: name('compat-fresh-club') })).id, 'campaign id')),
      campaignTemplateId: async () => str((await template({ campaign_id: discountId })).id, 'campaign template id'),
      accessToken: async () => str((await token()).access_token, 'access token'),
      // Campaigns of each type for the operations that change or delete one (the seeded ones stay as they are).
      discountCampaignId: async () => str((await campaign({ ...freshBodies.discount, name: name('compat-fresh-discount') })).id, 'campaign id'),
      referralCampaignId: async () => str((await campaign({ ...freshBodies.referral, name: name('compat-fresh-referral') })).id, 'campaign id'),
      giftCampaignId: async () => str((await campaign({ ...freshBodies.gift, name: name('compat-fresh-gift') })).id, 'campaign id'),
      loyaltyCampaignId: async () => str((await campaign({ ...freshBodies.loyalty, name: name('compat-fresh-loyalty') })).id, 'campaign id'),
      promotionCampaignId: async () => str((await campaign({ ...freshBodies.promotion, name: name('compat-fresh-promotion') })).id, 'campaign id'),
      // A tier of a promotion of its own, for the operations that change or delete one.
      promotionTierId: async () => {
        const created = (await campaign({ ...freshBodies.promotion, name: name('compat-fresh-tier-promotion') })) as {
          promotion?: { tiers?: { id?: unknown }[] };
        };
        return str(created.promotion?.tiers?.[0]?.id, 'promotion tier id');
      },
    },
  };
}

import { loadavg } from 'node:os';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeRedeemReward } from '../../functions/loyalties/redeem-reward.js';
import { makeHandler as makeCreateRewardAssignment } from '../../functions/rewards/create-reward-assignment.js';
import { makeHandler as makeCreateReward } from '../../functions/rewards/create-reward.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { addVouchersToCampaignRoute, createCampaignRoute, createRewardAssignmentRoute, createRewardRoute, redeemRewardRoute } from '../../lib/api/routes.js';
import { pointsBucket, rewardAssignmentPair, reward as rewardEntity, voucher as voucherEntity } from '../../lib/db/entities.js';
import { keys } from '../../lib/db/keys.js';
import { tableDesign } from '../../lib/db/table.js';
import type { ItemKey } from '../../lib/db/entity.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { check, type Check, type Section } from './report.js';
import { callSummary, rotation, withFreshPutKeys } from './replay.js';
import { median, ms, percentile } from './stats.js';

/**
 * The floor's copy of the subject's transaction: the card's Update goes to a twin card (so the
 * floor never disturbs the subject's optimistic lock) with a condition that always holds, and new
 * items get fresh keys. Conditions cost the same whichever holds, so the floor writes what the
 * subject writes.
 */
export function floorItems(items: readonly TransactItem[], cardKey: ItemKey, twinKey: ItemKey, suffix: string): TransactItem[] {
  return withFreshPutKeys(items, suffix).map((item) => {
    const u = item.Update;
    if (!u || u.Key?.PK !== cardKey.PK || u.Key?.SK !== cardKey.SK) return item;
    // Only what the update itself uses: the condition's names and values go with the condition.
    const used = new Set(u.UpdateExpression?.match(/[:#][A-Za-z0-9_]+/g) ?? []);
    const values = Object.fromEntries(Object.entries(u.ExpressionAttributeValues ?? {}).filter(([k]) => used.has(k)));
    const names = Object.fromEntries(Object.entries(u.ExpressionAttributeNames ?? {}).filter(([k]) => used.has(k)));
    const { ExpressionAttributeNames: _names, ...rest } = u;
    return {
      Update: {
        ...rest,
        Key: twinKey,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      },
    };
  });
}

/**
 * Issue 18 "spend points": POST /v1/loyalties/members/{memberId}/redemption of a MATERIAL reward
 * (no stock) through its handler, against its floor: the reads the work cannot avoid (the key, the
 * card by code, then at once the reward, its assignment to the program and the card's buckets) and
 * the one TransactWriteItems the subject sent, replayed on a twin card. In rotation, one sample per
 * side per round. See docs/benchmarks.md "10. Reward redemption".
 */
export async function benchRewardRedemption(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 15;
  const runtime = benchRuntime(ctx.engines);
  const { tableName: TableName, ddb } = runtime;
  const pair = await newBenchProject(runtime, 'bench reward redemption');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);

  ctx.progress('10. seeding: a loyalty program, a card with points, a reward on the program');
  const program = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: { name: 'Bench club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 100_000_000 } } },
  });
  const programId = program.id as string;
  const addVoucher = makeAddVouchers({ runtime });
  const card = await invokeOk(addVoucher, addVouchersToCampaignRoute, { path: `/v1/campaigns/${programId}/vouchers`, headers, json: { code: 'BENCH-CARD' } });
  await invokeOk(addVoucher, addVouchersToCampaignRoute, { path: `/v1/campaigns/${programId}/vouchers`, headers, json: { code: 'BENCH-TWIN' } });
  const reward = await invokeOk(makeCreateReward({ runtime }), createRewardRoute, {
    path: '/v1/rewards',
    headers,
    json: { name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } },
  });
  const rewardId = reward.id as string;
  await invokeOk(makeCreateRewardAssignment({ runtime }), createRewardAssignmentRoute, {
    path: `/v1/rewards/${rewardId}/assignments`,
    headers,
    json: { campaign: programId, parameters: { loyalty: { points: 1 } } },
  });

  const handler = makeRedeemReward({ runtime });
  const request = { path: '/v1/loyalties/members/BENCH-CARD/redemption', headers, json: { reward: { id: rewardId } } };
  const subject = () => invokeOk(handler, redeemRewardRoute, request);
  const recorder = recordCommands(runtime);
  for (let i = 0; i < warmup * 2; i += 1) await subject();
  recorder.reset();
  await subject();
  const calls = recorder.sent.map((s) => s.name);
  const transaction = recorder.sent.find((s) => s.name === 'TransactWrite');
  if (!transaction) throw new Error(`reward redemption sent no TransactWriteItems: ${calls.join(', ')}`);
  const items = transaction.input.TransactItems as TransactItem[];
  const cardKey = voucherEntity.key(p, 'BENCH-CARD');
  const twinKey = voucherEntity.key(p, 'BENCH-TWIN');

  let floorRun = 0;
  const floor = async () => {
    await ddb.send(new GetCommand({ TableName, Key: keys.appKey(pair.app_id), ConsistentRead: true }));
    await ddb.send(new GetCommand({ TableName, Key: cardKey, ConsistentRead: true }));
    await Promise.all([
      ddb.send(new GetCommand({ TableName, Key: rewardEntity.key(p, rewardId), ConsistentRead: true })),
      ddb.send(new GetCommand({ TableName, Key: rewardAssignmentPair.key(p, rewardId, programId), ConsistentRead: true })),
      ddb.send(
        new QueryCommand({
          TableName,
          IndexName: tableDesign.indexes.gsi1.name,
          KeyConditionExpression: `${tableDesign.indexes.gsi1.partitionKey} = :pk`,
          ExpressionAttributeValues: { ':pk': pointsBucket.index.partition(p, card.id as string) },
        }),
      ),
    ]);
    floorRun += 1;
    await ddb.send(new TransactWriteCommand({ TransactItems: floorItems(items, cardKey, twinKey, `#floor${floorRun}`) }));
  };

  ctx.progress(`10. reward redemption: ${runs} runs interleaved with its floor`);
  const samples: number[][] = [[], []];
  const sides = [subject, floor];
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const [t] = await timed(() => (sides[side] as () => Promise<unknown>)());
      if (i >= warmup) samples[side]?.push(t);
    }
  }
  const [s = [], f = []] = samples;
  const checks: Check[] = [
    check({
      name: 'POST /v1/loyalties/members/{memberId}/redemption (MATERIAL, no stock) p50',
      measured: median(s),
      floor: median(f),
      unit: 'ms',
      target: '≤ 1.25 × floor + 2 ms',
      bound: 1.25 * median(f) + 2,
      format: ms,
    }),
  ];
  const notes = [
    `sends ${callSummary(calls)}; floor Get key → Get card → (Get reward ‖ Get assignment ‖ Query buckets) → TransactWrite of the same ${items.length} items on a twin card`,
    `p99 ${ms(percentile(s, 99))} against ${ms(percentile(f, 99))}; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(1)}`,
  ];
  return [
    {
      item: 10,
      title: 'Reward redemption',
      checks,
      details: { runs, warmup, calls, transactionItems: items.length, p50: median(s), floorP50: median(f) },
      notes,
      seconds: (Date.now() - started) / 1000,
    },
  ];
}

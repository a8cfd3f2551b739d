import { generateOauthTokenRoute } from '../../lib/api/routes.js';
import type { LocalRuntime } from './start-local.js';

/**
 * What `npm start` prints once everything runs: where the API is, the dev key pair (a local,
 * throwaway secret: printing it is the point) and a curl line to paste.
 */
export function bannerOf(
  runtime: Pick<LocalRuntime, 'apiUrl' | 'downloadUrl' | 'engines' | 'devKey' | 'devClientKey' | 'devManagementKey'>,
  dataDir: string | null,
): string {
  const { apiUrl, downloadUrl, engines, devKey, devClientKey, devManagementKey } = runtime;
  return [
    '',
    `promo-engine is running locally (${dataDir === null ? 'in memory: nothing is kept' : `data in ${dataDir}`})`,
    `  API            ${apiUrl}`,
    `  Download       ${downloadUrl}`,
    `  DynamoDB       ${engines.dynamoEndpoint} (table ${engines.tableName})`,
    '',
    `Dev project      ${devKey.project_id}`,
    `  X-App-Id       ${devKey.app_id}`,
    `  X-App-Token    ${devKey.app_token}`,
    'Client-side key (browsers and apps, /client/v1/* only)',
    `  X-Client-Application-Id  ${devClientKey.app_id}`,
    `  X-Client-Token           ${devClientKey.app_token}`,
    `  Trusted origins          ${devClientKey.origins.join(', ')}`,
    "Management key (the operator's, /management/v1/* only: every project)",
    `  X-Management-Id     ${devManagementKey.management_id}`,
    `  X-Management-Token  ${devManagementKey.management_token}`,
    '',
    'Get an OAuth token:',
    `  curl -s -X POST ${apiUrl}${generateOauthTokenRoute.path} -H "X-App-Id: ${devKey.app_id}" -H "X-App-Token: ${devKey.app_token}" -d grant_type=client_credentials -d scope=api`,
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

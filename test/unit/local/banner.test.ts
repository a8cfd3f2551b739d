import { describe, expect, it } from 'vitest';
import { bannerOf } from '../../../infra/local/banner.js';

const runtime = {
  apiUrl: 'http://localhost:3000',
  downloadUrl: 'http://localhost:3001',
  engines: {
    dynamoEndpoint: 'http://127.0.0.1:8000',
    s3Endpoint: '',
    sqsEndpoint: '',
    region: 'eu-central-1',
    tableName: 'promo-engine',
    bucketName: '',
    queueUrls: {},
  },
  devKey: { project_id: 'proj_1', app_id: 'app-1', app_token: 'secret-1' },
  devClientKey: { project_id: 'proj_1', app_id: 'client_1', app_token: 'public-1', origins: ['http://localhost:3000', 'http://127.0.0.1:3000'] },
  devManagementKey: { management_id: 'mgmt_1', management_token: 'operator-1' },
};

describe('npm start banner', () => {
  it('prints both URLs, the dev key pair and a curl line for a token', () => {
    const banner = bannerOf(runtime, '/repo/.data');
    expect(banner).toContain('http://localhost:3000');
    expect(banner).toContain('http://localhost:3001');
    expect(banner).toContain('/repo/.data');
    expect(banner).toContain(
      'curl -s -X POST http://localhost:3000/v1/oauth/token -H "X-App-Id: app-1" -H "X-App-Token: secret-1" -d grant_type=client_credentials -d scope=api',
    );
  });

  it('prints the client-side key pair beside the server pair, with its trusted origins', () => {
    const banner = bannerOf(runtime, null);
    expect(banner).toContain('X-Client-Application-Id  client_1');
    expect(banner).toContain('X-Client-Token           public-1');
    expect(banner).toContain('Trusted origins          http://localhost:3000, http://127.0.0.1:3000');
  });

  it('prints the management key pair beside the project pairs', () => {
    const banner = bannerOf(runtime, null);
    expect(banner).toContain('X-Management-Id     mgmt_1');
    expect(banner).toContain('X-Management-Token  operator-1');
  });

  it('says when nothing is kept', () => {
    expect(bannerOf(runtime, null)).toContain('in memory');
  });
});

import { describe, expect, it } from 'vitest';
import { collectUrls } from '../../support/reply-urls.js';

describe('collectUrls', () => {
  it('finds every string field named url or *_url at any depth, with its path', () => {
    const reply = {
      url: '/v1/top',
      object: 'list',
      data: [
        { assets: { qr: { id: 'a', url: '/v1/assets/qr/a' } }, redemption: { url: '/v1/vouchers/A/redemption' } },
        { attributes: { image_url: 'https://img.example/x.png' } },
      ],
      result: { url: 'http://download/v1/exports/exp_1?token=t' },
    };
    expect(collectUrls(reply)).toEqual([
      { path: '$.url', url: '/v1/top' },
      { path: '$.data[0].assets.qr.url', url: '/v1/assets/qr/a' },
      { path: '$.data[0].redemption.url', url: '/v1/vouchers/A/redemption' },
      { path: '$.data[1].attributes.image_url', url: 'https://img.example/x.png' },
      { path: '$.result.url', url: 'http://download/v1/exports/exp_1?token=t' },
    ]);
  });

  it('ignores other fields, non-string urls and fields that merely contain "url"', () => {
    expect(collectUrls({ urls: ['/x'], url_count: 2, curly: '/y', url: null, nested: { url: 3 }, list: [null, 'url'] })).toEqual([]);
    expect(collectUrls(null)).toEqual([]);
    expect(collectUrls('url')).toEqual([]);
  });
});

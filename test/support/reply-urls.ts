/** A link found in a reply: where it sits (a JSON path) and its value. */
export interface FoundUrl {
  path: string;
  url: string;
}

const isUrlField = (key: string): boolean => key === 'url' || key.endsWith('_url');

/**
 * Every string field named `url` or `*_url` in a reply body, at any depth (objects and arrays),
 * with its JSON path (`$.publish.url`, `$.data[0].assets.qr.url`). Anything else is ignored.
 */
export function collectUrls(body: unknown, path = '$'): FoundUrl[] {
  if (Array.isArray(body)) return body.flatMap((item, i) => collectUrls(item, `${path}[${i}]`));
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const at = `${path}.${key}`;
    if (typeof value === 'string' && isUrlField(key)) return [{ path: at, url: value }];
    return collectUrls(value, at);
  });
}

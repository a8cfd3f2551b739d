import { defaultConfig } from '../runtime.js';

/**
 * This region's download cluster base URL (config DOWNLOAD_BASE_URL), read on first use.
 * @throws Error when the function was deployed without it.
 */
export function containerDownloadBaseUrl(): string {
  const base = defaultConfig().downloadBaseUrl;
  if (!base) throw new Error('Invalid configuration: DOWNLOAD_BASE_URL is required by a function that shows exports');
  return base;
}

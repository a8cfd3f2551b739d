import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from '../../../infra/local/cli-options.js';

const DEFAULT_DIR = '/repo/.data';

describe('npm start options', () => {
  it('defaults to ports 3000 and 3001, the default data folder and info logs', () => {
    expect(parseCliOptions([], {}, DEFAULT_DIR)).toEqual({
      help: false,
      port: 3000,
      downloadPort: 3001,
      dataDir: DEFAULT_DIR,
      devKey: undefined,
      devClientKey: undefined,
      devClientOrigins: undefined,
      logLevel: 'info',
    });
  });

  it('reads PORT, DOWNLOAD_PORT, DATA_DIR and LOG_LEVEL', () => {
    const options = parseCliOptions([], { PORT: '0', DOWNLOAD_PORT: '4001', DATA_DIR: '/tmp/x', LOG_LEVEL: 'debug' }, DEFAULT_DIR);
    expect(options).toMatchObject({ port: 0, downloadPort: 4001, dataDir: '/tmp/x', logLevel: 'debug' });
  });

  it.each([
    [['--in-memory'], {}],
    [[], { IN_MEMORY: '1' }],
    [[], { IN_MEMORY: 'true', DATA_DIR: '/tmp/x' }],
  ])('runs in memory for %j %j', (argv, env) => {
    expect(parseCliOptions(argv, env, DEFAULT_DIR).dataDir).toBeNull();
  });

  it('keeps data when IN_MEMORY is 0 or empty', () => {
    expect(parseCliOptions([], { IN_MEMORY: '0' }, DEFAULT_DIR).dataDir).toBe(DEFAULT_DIR);
    expect(parseCliOptions([], { IN_MEMORY: '' }, DEFAULT_DIR).dataDir).toBe(DEFAULT_DIR);
  });

  it('uses DEV_APP_ID and DEV_APP_TOKEN when both are set', () => {
    expect(parseCliOptions([], { DEV_APP_ID: 'id', DEV_APP_TOKEN: 'tok' }, DEFAULT_DIR).devKey).toEqual({ appId: 'id', appToken: 'tok' });
  });

  it('uses DEV_CLIENT_APP_ID, DEV_CLIENT_APP_TOKEN and the comma-separated DEV_CLIENT_ORIGINS', () => {
    const options = parseCliOptions(
      [],
      { DEV_CLIENT_APP_ID: 'cid', DEV_CLIENT_APP_TOKEN: 'ctok', DEV_CLIENT_ORIGINS: 'http://localhost:5173, https://shop.example' },
      DEFAULT_DIR,
    );
    expect(options.devClientKey).toEqual({ appId: 'cid', appToken: 'ctok' });
    expect(options.devClientOrigins).toEqual(['http://localhost:5173', 'https://shop.example']);
  });

  it('uses DEV_MANAGEMENT_ID and DEV_MANAGEMENT_TOKEN when both are set', () => {
    expect(parseCliOptions([], { DEV_MANAGEMENT_ID: 'mid', DEV_MANAGEMENT_TOKEN: 'mtok' }, DEFAULT_DIR).devManagementKey).toEqual({
      managementId: 'mid',
      managementToken: 'mtok',
    });
  });

  it.each([
    [[], { DEV_MANAGEMENT_ID: 'mid' }, /both DEV_MANAGEMENT_ID and DEV_MANAGEMENT_TOKEN/],
    [[], { DEV_CLIENT_APP_ID: 'cid' }, /both DEV_CLIENT_APP_ID and DEV_CLIENT_APP_TOKEN/],
    [[], { DEV_CLIENT_ORIGINS: 'localhost:5173' }, /DEV_CLIENT_ORIGINS must list origins/],
    [[], { DEV_APP_ID: 'id' }, /both DEV_APP_ID and DEV_APP_TOKEN/],
    [[], { DEV_APP_TOKEN: 'tok' }, /both DEV_APP_ID and DEV_APP_TOKEN/],
    [[], { PORT: 'http' }, /PORT must be a port number/],
    [[], { DOWNLOAD_PORT: '70000' }, /DOWNLOAD_PORT must be a port number/],
    [[], { LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [['--port=1'], {}, /Unknown argument '--port=1'/],
  ])('refuses %j %j with a one-line usage error', (argv, env, message) => {
    expect(() => parseCliOptions(argv, env, DEFAULT_DIR)).toThrow(UsageError);
    expect(() => parseCliOptions(argv, env, DEFAULT_DIR)).toThrow(message);
  });

  it('recognises --help', () => {
    expect(parseCliOptions(['--help'], {}, DEFAULT_DIR).help).toBe(true);
  });
});

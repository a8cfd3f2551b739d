import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_PACKAGE_JSON,
  DYNAMODB_OPERATIONS_USED,
  dynamoErrorsThrown,
  purePaginator,
  SDK_PAGINATOR,
  s3EndpointCustomizationShim,
  sdkFileShims,
  withoutUnusedErrors,
} from '../../../infra/constructs/sdk-file-shims.js';

const nodeModules = join(import.meta.dirname, '../../../node_modules');

/** The names an SDK `dist-es` file (or a replacement) exports: `export const|class|function|let name`. */
const exportedNames = (source: string): string[] =>
  [...source.matchAll(/^export (?:const|let|class|function|async function) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] as string).sort();

describe('the SDK files the bundles replace (infra/constructs/sdk-file-shims.ts)', () => {
  for (const shim of [...sdkFileShims, s3EndpointCustomizationShim]) {
    it(`${shim.file} still exists and exports what its replacement exports`, () => {
      const path = join(nodeModules, shim.file);
      expect(existsSync(path), `${shim.file} moved: update sdk-file-shims.ts`).toBe(true);
      const original = exportedNames(readFileSync(path, 'utf8'));
      expect(exportedNames(shim.contents)).toEqual([...shim.exports].sort());
      expect(original).toEqual([...shim.exports].sort());
    });
  }

  it('names each client package.json, whose only field read is version', () => {
    for (const client of ['client-dynamodb', 'client-sqs', 'client-s3']) {
      expect(CLIENT_PACKAGE_JSON.test(join(nodeModules, '@aws-sdk', client, 'package.json'))).toBe(true);
      const runtimeConfig = readFileSync(join(nodeModules, '@aws-sdk', client, 'dist-es/runtimeConfig.js'), 'utf8');
      expect([...runtimeConfig.matchAll(/packageInfo\.(\w+)/g)].map((m) => m[1])).toEqual(['version']);
    }
    expect(CLIENT_PACKAGE_JSON.test(join(nodeModules, '@aws-sdk/lib-dynamodb/package.json'))).toBe(false);
  });
});

describe('the DynamoDB errors the bundles register', () => {
  it('name every operation the house calls (lib/ and functions/, through lib-dynamodb or the bare client)', () => {
    const source = execFileSync('git', ['grep', '-hoE', '\\b[A-Z][A-Za-z]+Command\\b', '--', 'lib', 'functions'], {
      cwd: join(import.meta.dirname, '../../..'),
    }).toString();
    const documentToBare: Record<string, string> = {
      Get: 'GetItem',
      Put: 'PutItem',
      Update: 'UpdateItem',
      Delete: 'DeleteItem',
      BatchGet: 'BatchGetItem',
      BatchWrite: 'BatchWriteItem',
      TransactWrite: 'TransactWriteItems',
      TransactGet: 'TransactGetItems',
    };
    const dynamoOperations = readdirSync(join(nodeModules, '@aws-sdk/client-dynamodb/dist-es/commands')).map((f) => f.replace(/Command\.js$/, ''));
    const used = new Set(
      source
        .split('\n')
        .filter(Boolean)
        .map((c) => c.replace(/Command$/, ''))
        .map((c) => documentToBare[c] ?? c)
        .filter((op) => dynamoOperations.includes(op)),
    );
    expect([...used].filter((op) => !(DYNAMODB_OPERATIONS_USED as readonly string[]).includes(op))).toEqual([]);
  });

  it('keep every error those operations declare and drop the control plane’s', () => {
    const kept = dynamoErrorsThrown(nodeModules);
    for (const name of [
      'ConditionalCheckFailedException',
      'TransactionCanceledException',
      'TransactionConflictException',
      'ProvisionedThroughputExceededException',
      'ThrottlingException',
      'RequestLimitExceeded',
      'InternalServerError',
    ])
      expect(kept).toContain(name);
    const schemas = readFileSync(join(nodeModules, '@aws-sdk/client-dynamodb/dist-es/schemas/schemas_0.js'), 'utf8');
    const trimmed = withoutUnusedErrors(schemas, kept);
    const registered = (s: string): string[] => [...s.matchAll(/^n0_registry\.registerError\((\w+)\$/gm)].map((m) => m[1] as string);
    expect(registered(trimmed).sort()).toEqual(
      registered(schemas)
        .filter((n) => kept.has(n))
        .sort(),
    );
    expect(registered(trimmed)).not.toContain('BackupInUseException');
    expect(trimmed).not.toMatch(/^export var BackupInUseException\$/m);
    expect(trimmed).toMatch(/^export var TransactionCanceledException\$/m);
  });
});

describe('the SDK paginators', () => {
  it('are built by a call marked pure, so an unread one leaves its command out', () => {
    const path = join(nodeModules, '@aws-sdk/lib-dynamodb/dist-es/pagination/ScanPaginator.js');
    expect(SDK_PAGINATOR.test(path)).toBe(true);
    const marked = purePaginator(readFileSync(path, 'utf8'));
    expect(marked).toContain('= /* @__PURE__ */ createPaginator(DynamoDBDocumentClient, ScanCommand');
    expect(SDK_PAGINATOR.test(join(nodeModules, '@aws-sdk/lib-dynamodb/dist-es/pagination/Interfaces.js'))).toBe(false);
  });
});

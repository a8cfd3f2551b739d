import type { ParseArgsConfig } from 'node:util';
import type { AppKeyView } from '../../lib/app-keys/app-key.js';
import {
  createAppKey,
  createClientKey,
  createProject,
  deleteAppKey,
  listProjectAppKeys,
  regenerateAppKey,
  setClientOrigins,
  setClientSwitches,
  setKeyIpAllowList,
  setKeyPermissions,
  setKeyStatus,
} from '../../lib/app-keys/app-key.service.js';
import type { ManagementKeyView } from '../../lib/management/management-key.js';
import {
  createManagementKey,
  deleteManagementKey,
  listManagementKeys,
  regenerateManagementKey,
  setManagementKeyIpAllowList,
  setManagementKeyStatus,
} from '../../lib/management/management-key.service.js';
import { backfillCampaignFilters, type CampaignFilterBackfill, projectsWithCampaigns } from '../../lib/campaigns/campaign-backfill.js';
import { backfillVoucherLists } from '../../lib/vouchers/voucher-list-backfill.js';
import { backfillAsyncActionList } from '../../lib/async-actions/async-action-list-backfill.js';
import { backfillRedemptionCampaigns } from '../../lib/redemptions/redemption-campaign-backfill.js';
import { createLocation } from '../../lib/locations/location.service.js';
import { createLocationInput } from '../../lib/locations/location.schema.js';
import { toLocationReply } from '../../lib/locations/location.mapper.js';
import { requireProject } from '../../lib/projects/require-project.js';
import type { AdminDeps } from './target.js';
import { UsageError } from './usage-error.js';

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** A parsed command, ready to run once the target is open. */
export type Action = (deps: AdminDeps) => Promise<unknown>;

export interface Command {
  group: keyof typeof GROUPS;
  name: string;
  /** Positional placeholders after the command words, e.g. `<app_id>`. */
  args: readonly string[];
  /** The rest of the usage line: options in usage notation. */
  synopsis: string;
  summary: string;
  options: OptionsConfig;
  /** [flag as shown, meaning] for the help text. */
  optionHelp: ReadonlyArray<readonly [string, string]>;
  /**
   * Turns arguments into an action.
   * @throws UsageError when the flags do not make a valid call.
   */
  prepare(args: readonly string[], values: Values): Action;
}

export const GROUPS = {
  project: 'projects: each holds its own data and application keys',
  key: 'application keys of a project: server-side (X-App-Id / X-App-Token) and client-side (X-Client-Application-Id / X-Client-Token)',
  'management-key':
    'management keys of the operator (X-Management-Id / X-Management-Token): they open the Management API (/management/v1/*) only, for every project',
  location: 'locations of a project (GET /v1/locations): the API reads them, only the operator makes them',
  backfill: 'one-off, idempotent migrations of stored data (docs/deploy.md "After deploying")',
} as const;

/**
 * The key as operators see it, field by field: listing the fields (rather than spreading the
 * view) keeps anything added to the stored key, such as a hash, out of the output.
 */
export const keyJson = (v: AppKeyView) => ({
  app_id: v.appId,
  project_id: v.projectId,
  name: v.name,
  status: v.status,
  permissions: v.permissions,
  ip_allow_list: v.ipAllowList,
  side: v.side,
  ...(v.side === 'client' ? { trusted_origins: v.trustedOrigins, originless: v.originless } : {}),
  created_at: v.createdAt,
  updated_at: v.updatedAt,
});

const text = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

const required = (values: Values, name: string): string => {
  const value = text(values, name)?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};

/** Exactly one of a list flag and its "back to default" switch. */
function listOrDefault(values: Values, listFlag: string, defaultFlag: string): string[] | null {
  const list = text(values, listFlag);
  const reset = values[defaultFlag] === true;
  if (list !== undefined && reset) throw new UsageError(`--${listFlag} and --${defaultFlag} exclude each other`);
  if (list === undefined && !reset) throw new UsageError(`give --${listFlag} "<value> ..." or --${defaultFlag}`);
  return reset ? null : list!.split(/\s+/).filter((part) => part.length > 0);
}

const appIdArg = ['<app_id>'] as const;
const managementIdArg = ['<management_id>'] as const;

/** A management key as operators see it, field by field (never its hash). */
export const managementKeyJson = (v: ManagementKeyView) => ({
  management_id: v.managementId,
  name: v.name,
  status: v.status,
  ip_allow_list: v.ipAllowList,
  created_at: v.createdAt,
  updated_at: v.updatedAt,
});

const managementStatusCommand = (name: 'block' | 'unblock', status: 'BLOCKED' | 'ACTIVE', summary: string): Command => ({
  group: 'management-key',
  name,
  args: managementIdArg,
  synopsis: '',
  summary,
  options: {},
  optionHelp: [],
  prepare:
    ([managementId]) =>
    async (deps) =>
      managementKeyJson(await setManagementKeyStatus(deps, managementId!, status)),
});

const statusCommand = (name: 'block' | 'unblock', status: 'BLOCKED' | 'ACTIVE', summary: string): Command => ({
  group: 'key',
  name,
  args: appIdArg,
  synopsis: '',
  summary,
  options: {},
  optionHelp: [],
  prepare:
    ([appId]) =>
    async (deps) =>
      keyJson(await setKeyStatus(deps, appId!, status)),
});

export const COMMANDS: readonly Command[] = [
  {
    group: 'project',
    name: 'create',
    args: [],
    synopsis: '--name <name>',
    summary: 'Creates a project with its first key pair and prints {project_id, app_id, app_token}. The token is shown only now.',
    options: { name: { type: 'string' } },
    optionHelp: [['--name <name>', 'the project name (required)']],
    prepare: (_args, values) => {
      const name = required(values, 'name');
      return (deps) => createProject(deps, name);
    },
  },
  {
    group: 'project',
    name: 'client-settings',
    args: ['<project_id>'],
    synopsis: '[--redeem on|off] [--publish on|off] [--loyalty-events on|off]',
    summary:
      "Turns the project's client-side switches on or off (the reference's client_redeem_enabled, client_publish_enabled, client_loyalty_events_enabled; all off for a new project) and prints them.",
    options: { redeem: { type: 'string' }, publish: { type: 'string' }, 'loyalty-events': { type: 'string' } },
    optionHelp: [
      ['--redeem on|off', 'POST /client/v1/redeem and /client/v1/redemptions'],
      ['--publish on|off', 'POST /client/v1/publish'],
      ['--loyalty-events on|off', 'POST /client/v1/events earning points'],
    ],
    prepare: ([projectId], values) => {
      const flag = (name: string): boolean | undefined => {
        const value = text(values, name);
        if (value === undefined) return undefined;
        if (value !== 'on' && value !== 'off') throw new UsageError(`--${name} takes on or off, got '${value}'`);
        return value === 'on';
      };
      const switches = {
        ...(flag('redeem') !== undefined ? { clientRedeemEnabled: flag('redeem') } : {}),
        ...(flag('publish') !== undefined ? { clientPublishEnabled: flag('publish') } : {}),
        ...(flag('loyalty-events') !== undefined ? { clientLoyaltyEventsEnabled: flag('loyalty-events') } : {}),
      };
      if (Object.keys(switches).length === 0) throw new UsageError('give at least one of --redeem, --publish, --loyalty-events');
      return async (deps) => {
        const p = await setClientSwitches(deps, projectId!, switches);
        return {
          project_id: p.projectId,
          client_redeem_enabled: p.clientRedeemEnabled,
          client_publish_enabled: p.clientPublishEnabled,
          client_loyalty_events_enabled: p.clientLoyaltyEventsEnabled,
        };
      };
    },
  },
  {
    group: 'key',
    name: 'create',
    args: [],
    synopsis: '--project <project_id> [--name <name>]',
    summary: 'Adds a key pair to a project and prints {project_id, app_id, app_token}. The token is shown only now.',
    options: { project: { type: 'string' }, name: { type: 'string' } },
    optionHelp: [
      ['--project <project_id>', 'the project (required)'],
      ['--name <name>', 'a label for the key (default "default")'],
    ],
    prepare: (_args, values) => {
      const projectId = required(values, 'project');
      const name = text(values, 'name')?.trim();
      return (deps) => createAppKey(deps, projectId, name ? { name } : {});
    },
  },
  {
    group: 'key',
    name: 'create-client',
    args: [],
    synopsis: '--project <project_id> --origins "<origin> ..." [--name <name>] [--no-originless]',
    summary:
      'Adds a client-side (publishable) key pair to a project and prints {project_id, app_id, app_token}: it opens /client/v1/* only, from its trusted origins. The token is shown only now.',
    options: { project: { type: 'string' }, origins: { type: 'string' }, name: { type: 'string' }, 'no-originless': { type: 'boolean' } },
    optionHelp: [
      ['--project <project_id>', 'the project (required)'],
      ['--origins "<origin> ..."', 'space-separated browser origins, e.g. "https://shop.example https://www.shop.example" (required; "" for none)'],
      ['--name <name>', 'a label for the key (default "client")'],
      ['--no-originless', 'refuse requests that send no Origin (default: admitted, for mobile apps)'],
    ],
    prepare: (_args, values) => {
      const projectId = required(values, 'project');
      const origins = text(values, 'origins');
      if (origins === undefined) throw new UsageError('--origins is required');
      const name = text(values, 'name')?.trim();
      const originless = values['no-originless'] !== true;
      return (deps) => createClientKey(deps, projectId, { origins: origins.split(/\s+/).filter(Boolean), originless, ...(name ? { name } : {}) });
    },
  },
  {
    group: 'key',
    name: 'origins',
    args: appIdArg,
    synopsis: '--origins "<origin> ..." [--originless | --no-originless]',
    summary: "Replaces a client-side key's trusted origins (and whether requests without Origin are admitted) and prints the key.",
    options: { origins: { type: 'string' }, originless: { type: 'boolean' }, 'no-originless': { type: 'boolean' } },
    optionHelp: [
      ['--origins "<origin> ..."', 'space-separated browser origins (required; "" for none)'],
      ['--originless / --no-originless', 'admit or refuse requests without Origin (default: unchanged)'],
    ],
    prepare: ([appId], values) => {
      const origins = text(values, 'origins');
      if (origins === undefined) throw new UsageError('--origins is required');
      if (values.originless === true && values['no-originless'] === true) throw new UsageError('--originless and --no-originless exclude each other');
      const originless = values.originless === true ? true : values['no-originless'] === true ? false : undefined;
      return async (deps) => keyJson(await setClientOrigins(deps, appId!, origins.split(/\s+/).filter(Boolean), originless));
    },
  },
  {
    group: 'key',
    name: 'list',
    args: [],
    synopsis: '--project <project_id>',
    summary: "Prints a project's keys as a JSON array (never a token or its hash). permissions null = all scopes, ip_allow_list null = any address.",
    options: { project: { type: 'string' } },
    optionHelp: [['--project <project_id>', 'the project (required)']],
    prepare: (_args, values) => {
      const projectId = required(values, 'project');
      return async (deps) => (await listProjectAppKeys(deps, projectId)).map(keyJson);
    },
  },
  statusCommand('block', 'BLOCKED', 'Blocks a key: its pair fails at once, its OAuth tokens within a minute. Prints the key.'),
  statusCommand('unblock', 'ACTIVE', 'Makes a blocked key usable again. Prints the key.'),
  {
    group: 'key',
    name: 'delete',
    args: appIdArg,
    synopsis: '',
    summary: 'Deletes a key for good: its pair fails at once, its OAuth tokens within a minute. Prints {app_id, deleted}.',
    options: {},
    optionHelp: [],
    prepare:
      ([appId]) =>
      async (deps) => {
        await deleteAppKey(deps, appId!);
        return { app_id: appId, deleted: true };
      },
  },
  {
    group: 'key',
    name: 'regenerate',
    args: appIdArg,
    synopsis: '',
    summary:
      "Replaces a key's token and prints the new {project_id, app_id, app_token}. The old token fails at once; OAuth tokens made with the key keep working.",
    options: {},
    optionHelp: [],
    prepare:
      ([appId]) =>
      (deps) =>
        regenerateAppKey(deps, appId!),
  },
  {
    group: 'key',
    name: 'permissions',
    args: appIdArg,
    synopsis: '(--scopes "<scope> ..." | --all)',
    summary: 'Sets the scopes a key may use (docs/auth.md lists them) and prints the key.',
    options: { scopes: { type: 'string' }, all: { type: 'boolean' } },
    optionHelp: [
      ['--scopes "<scope> ..."', 'space-separated scopes, e.g. "vouchers campaigns"'],
      ['--all', 'back to the default: every scope'],
    ],
    prepare: ([appId], values) => {
      const scopes = listOrDefault(values, 'scopes', 'all');
      return async (deps) => keyJson(await setKeyPermissions(deps, appId!, scopes));
    },
  },
  {
    group: 'key',
    name: 'ip-allow-list',
    args: appIdArg,
    synopsis: '(--cidrs "<cidr> ..." | --any)',
    summary: 'Limits the addresses a key (and its OAuth tokens) may be used from, and prints the key.',
    options: { cidrs: { type: 'string' }, any: { type: 'boolean' } },
    optionHelp: [
      ['--cidrs "<cidr> ..."', 'space-separated IPv4/IPv6 CIDRs or addresses, e.g. "10.0.0.0/8 203.0.113.7"'],
      ['--any', 'back to the default: any address'],
    ],
    prepare: ([appId], values) => {
      const cidrs = listOrDefault(values, 'cidrs', 'any');
      return async (deps) => keyJson(await setKeyIpAllowList(deps, appId!, cidrs));
    },
  },
  {
    group: 'management-key',
    name: 'create',
    args: [],
    synopsis: '[--name <name>] [--cidrs "<cidr> ..."]',
    summary:
      'Makes a management key pair and prints {management_id, management_token}: it opens the Management API (/management/v1/*) for every project, and nothing else. The token is shown only now.',
    options: { name: { type: 'string' }, cidrs: { type: 'string' } },
    optionHelp: [
      ['--name <name>', 'a label for the key (default "default")'],
      ['--cidrs "<cidr> ..."', 'space-separated CIDRs requests must come from (default: any address)'],
    ],
    prepare: (_args, values) => {
      const name = text(values, 'name')?.trim();
      const cidrs = text(values, 'cidrs')?.split(/\s+/).filter(Boolean);
      return (deps) => createManagementKey(deps, { ...(name ? { name } : {}), ...(cidrs ? { ipAllowList: cidrs } : {}) });
    },
  },
  {
    group: 'management-key',
    name: 'list',
    args: [],
    synopsis: '',
    summary: 'Prints every management key as a JSON array (never a token or its hash). ip_allow_list null = any address.',
    options: {},
    optionHelp: [],
    prepare: () => async (deps) => (await listManagementKeys(deps)).map(managementKeyJson),
  },
  managementStatusCommand('block', 'BLOCKED', 'Blocks a management key: its next request gets 401. Prints the key.'),
  managementStatusCommand('unblock', 'ACTIVE', 'Makes a blocked management key usable again. Prints the key.'),
  {
    group: 'management-key',
    name: 'ip-allow-list',
    args: managementIdArg,
    synopsis: '(--cidrs "<cidr> ..." | --any)',
    summary: 'Limits the addresses a management key may be used from (others get 403), and prints the key.',
    options: { cidrs: { type: 'string' }, any: { type: 'boolean' } },
    optionHelp: [
      ['--cidrs "<cidr> ..."', 'space-separated IPv4/IPv6 CIDRs or addresses'],
      ['--any', 'back to the default: any address'],
    ],
    prepare: ([managementId], values) => {
      const cidrs = listOrDefault(values, 'cidrs', 'any');
      return async (deps) => managementKeyJson(await setManagementKeyIpAllowList(deps, managementId!, cidrs));
    },
  },
  {
    group: 'management-key',
    name: 'regenerate',
    args: managementIdArg,
    synopsis: '',
    summary: "Replaces a management key's token and prints the new {management_id, management_token}. The old token fails at once.",
    options: {},
    optionHelp: [],
    prepare:
      ([managementId]) =>
      (deps) =>
        regenerateManagementKey(deps, managementId!),
  },
  {
    group: 'management-key',
    name: 'delete',
    args: managementIdArg,
    synopsis: '',
    summary: 'Deletes a management key for good: its next request gets 401. Prints {management_id, deleted}.',
    options: {},
    optionHelp: [],
    prepare:
      ([managementId]) =>
      async (deps) => {
        await deleteManagementKey(deps, managementId!);
        return { management_id: managementId, deleted: true };
      },
  },
  {
    group: 'backfill',
    name: 'campaign-filters',
    args: [],
    synopsis: '[--project <project_id>]',
    summary:
      'Gives campaigns written before the campaign filter views their view entries and counts, so GET /v1/campaigns serves campaign_type, campaign_status and is_referral_code from key ranges (until then those lists read every list entry). Safe to rerun and beside live traffic. Prints {projects: [{project_id, campaigns, outcome, not_done, attempts}]}.',
    options: { project: { type: 'string' } },
    optionHelp: [['--project <project_id>', 'one project only (default: every project with campaigns, found by one Scan of the table)']],
    prepare: (_args, values) => {
      const only = text(values, 'project')?.trim();
      const json = (r: CampaignFilterBackfill) => ({
        project_id: r.projectId,
        campaigns: r.campaigns,
        outcome: r.outcome,
        not_done: r.notDone,
        attempts: r.attempts,
      });
      return async (deps) => {
        const projects: ReturnType<typeof json>[] = [];
        if (only) projects.push(json(await backfillCampaignFilters(deps, only)));
        else for await (const projectId of projectsWithCampaigns(deps)) projects.push(json(await backfillCampaignFilters(deps, projectId)));
        return { projects };
      };
    },
  },
  {
    group: 'backfill',
    name: 'voucher-lists',
    args: [],
    synopsis: '[--project <project_id>]',
    summary:
      "Gives vouchers written before GET /v1/vouchers their list entries (the project's GSI3 entry; its GSI5 entry at its last change, for `updated_at[…]` and `order=updated_at`; a categorised voucher's GSI4 entry; in GSI2 a held voucher's holder entry, or a publishable voucher's entry in its campaign's pool), so the unfiltered, by-change, `customer` and `category` lists include them and campaign publications can pick them (the `campaign_id` list needs nothing). One filtered Scan, or with --project a Query per campaign; safe to rerun and beside live traffic. Prints {found, updated, gone}.",
    options: { project: { type: 'string' } },
    optionHelp: [['--project <project_id>', 'one project only (default: every voucher of the table)']],
    prepare: (_args, values) => {
      const only = text(values, 'project')?.trim();
      return async (deps) => backfillVoucherLists(deps, only || undefined);
    },
  },
  {
    group: 'backfill',
    name: 'async-actions',
    args: [],
    synopsis: '[--project <project_id>]',
    summary:
      'Gives async actions written before GET /v1/async-actions their list entry (GSI1), so the list shows them. One filtered Scan; safe to rerun and beside live traffic. Prints {found, updated, gone}.',
    options: { project: { type: 'string' } },
    optionHelp: [['--project <project_id>', "one project's actions only (the Scan still reads the table)"]],
    prepare: (_args, values) => {
      const only = text(values, 'project')?.trim();
      return async (deps) => backfillAsyncActionList(deps, only || undefined);
    },
  },
  {
    group: 'backfill',
    name: 'redemption-campaigns',
    args: [],
    synopsis: '[--project <project_id>]',
    summary:
      "Gives redemptions written before GET /v1/redemptions?campaign= read an index their campaign's entry (GSI4), so a campaign's list shows them. One filtered Scan; safe to rerun and beside live traffic. Prints {found, updated, gone}.",
    options: { project: { type: 'string' } },
    optionHelp: [['--project <project_id>', "one project's redemptions only (the Scan still reads the table)"]],
    prepare: (_args, values) => {
      const only = text(values, 'project')?.trim();
      return async (deps) => backfillRedemptionCampaigns(deps, only || undefined);
    },
  },
  {
    group: 'location',
    name: 'create',
    args: ['<project_id>'],
    synopsis: "--name <name> --shape '<json>'",
    summary: 'Creates a location of the project (the reference has no API call that makes one) and prints it as GET /v1/locations/{locationId} shows it.',
    options: { name: { type: 'string' }, shape: { type: 'string' } },
    optionHelp: [
      ['--name <name>', 'the location name (required)'],
      [
        "--shape '<json>'",
        'the shape, as the reference writes it: {"type":"circle","format":"distance","distance":{"center":"geo:52.23,21.01","radius":"5 km"}} or {"type":"polygon","format":"geojson","geojson":{"type":"Polygon","coordinates":[[[lon,lat],...]]}}',
      ],
    ],
    prepare: ([projectId], values) => {
      let shape: unknown;
      try {
        shape = JSON.parse(required(values, 'shape'));
      } catch {
        throw new UsageError('--shape takes a JSON object');
      }
      const parsed = createLocationInput.safeParse({ name: required(values, 'name'), shape });
      if (!parsed.success) throw new UsageError(`invalid location: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      return async (deps) => {
        await requireProject(deps, projectId!);
        return toLocationReply(await createLocation(deps, projectId!, parsed.data));
      };
    },
  },
];

export const commandsOf = (group: string): Command[] => COMMANDS.filter((c) => c.group === group);

export const findCommand = (group: string, name: string): Command | undefined => COMMANDS.find((c) => c.group === group && c.name === name);

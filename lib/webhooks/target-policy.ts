import { dns } from '../builtins.js';
import { defaultConfig } from '../runtime.js';
import { boundedResolve, CLOUD_TARGET_POLICY, type Resolve, type TargetPolicy } from './target-guard.js';

/** The local runtime's policy: http: and loopback receivers are allowed, private and metadata ranges stay refused. */
export const LOCAL_TARGET_POLICY: TargetPolicy = { allowHttp: true, allowLoopback: true };

/** The policy of this container (config WEBHOOK_TARGETS): the deployed stacks' unless the local runtime said `local`. */
export const containerWebhookTargets = (): TargetPolicy => (defaultConfig().webhookTargets === 'local' ? LOCAL_TARGET_POLICY : CLOUD_TARGET_POLICY);

/** How long a target's name may take to resolve before the write or delivery treats it as not resolving. */
export const RESOLVE_TIMEOUT_MS = 3000;

/** Every address a host resolves to (the system resolver, as the connection would use), within RESOLVE_TIMEOUT_MS. */
export const systemResolve: Resolve = boundedResolve(
  async (host) => (await dns().lookup(host, { all: true, verbatim: true })).map((a) => a.address),
  RESOLVE_TIMEOUT_MS,
);

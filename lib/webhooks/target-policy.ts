import { lookup } from 'node:dns/promises';
import { defaultConfig } from '../runtime.js';
import { CLOUD_TARGET_POLICY, type Resolve, type TargetPolicy } from './target-guard.js';

/** The local runtime's policy: http: and loopback receivers are allowed, private and metadata ranges stay refused. */
export const LOCAL_TARGET_POLICY: TargetPolicy = { allowHttp: true, allowLoopback: true };

/** The policy of this container (config WEBHOOK_TARGETS): the deployed stacks' unless the local runtime said `local`. */
export const containerWebhookTargets = (): TargetPolicy => (defaultConfig().webhookTargets === 'local' ? LOCAL_TARGET_POLICY : CLOUD_TARGET_POLICY);

/** Every address a host resolves to (the system resolver, as the connection would use). */
export const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

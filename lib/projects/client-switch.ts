import { ForbiddenError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { ClientSwitch } from './project.js';
import { getProject } from './project.repo.js';

/** The reference's names of the switches, for the refusal. */
const SWITCH_NAMES: Record<ClientSwitch, string> = {
  clientRedeemEnabled: 'client_redeem_enabled',
  clientPublishEnabled: 'client_publish_enabled',
  clientLoyaltyEventsEnabled: 'client_loyalty_events_enabled',
};

/** Whether the project has the client-side switch on (one GetItem of the project item). */
export async function clientSwitchOn(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, which: ClientSwitch): Promise<boolean> {
  return (await getProject(deps, projectId))?.[which] === true;
}

/**
 * Refuses a client-side call the project has not switched on (the reference's project settings;
 * off by default): a published key must not redeem, publish or move points unless the shop chose so.
 * @throws ForbiddenError naming the switch.
 */
export async function requireClientSwitch(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, which: ClientSwitch, what: string): Promise<void> {
  if (!(await clientSwitchOn(deps, projectId, which))) {
    throw new ForbiddenError(
      `${what} from the client side is switched off for this project (${SWITCH_NAMES[which]}); an operator turns it on with npm run admin -- project client-settings`,
    );
  }
}

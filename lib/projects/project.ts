/** A tenant: every item of its resources is keyed under it. */
export interface Project {
  projectId: string;
  name: string;
  /**
   * The reference's project switches for the client-side API (`client_redeem_enabled`,
   * `client_publish_enabled`, `client_loyalty_events_enabled`): off unless an operator turns them on
   * (docs/decisions.md "Client-side keys").
   */
  clientRedeemEnabled: boolean;
  clientPublishEnabled: boolean;
  clientLoyaltyEventsEnabled: boolean;
  createdAt: string;
}

export type ClientSwitch = 'clientRedeemEnabled' | 'clientPublishEnabled' | 'clientLoyaltyEventsEnabled';

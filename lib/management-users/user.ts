/**
 * The predefined roles of the reference. A role is a label kept for the operator: a user record
 * grants nothing on this API (there is no login; docs/auth.md "Management users").
 */
export const USER_ROLES = ['ADMIN', 'USER', 'VIEWER', 'MERCHANT', 'USER_RESTRICTED'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A member of the operator's organisation, made by invite-user; assigned to projects with a role in each. */
export interface User {
  /** `user_…` */
  id: string;
  /** The email the user was invited with. */
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Project id → role, for every project the user is assigned to. */
  projects: Record<string, UserRole>;
  createdAt: string;
}

/** A user's assignment to one project (the project's side, listed by list-users). */
export interface ProjectUser {
  projectId: string;
  userId: string;
  role: UserRole;
  assignedAt: string;
}

/** Logins are email addresses: unique whatever their letter case. */
export const loginKeyOf = (login: string): string => login.toLowerCase();

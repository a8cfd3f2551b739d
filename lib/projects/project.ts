/** A tenant: every item of its resources is keyed under it. */
export interface Project {
  projectId: string;
  name: string;
  createdAt: string;
}

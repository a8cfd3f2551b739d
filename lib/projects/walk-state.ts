/*
 * The checkpoint of a walk over a project's items (project-walk.ts), as its subject item stores it.
 * Apart from the walk itself, so the writes that start a job (in the request's bundle) do not carry the walk's code.
 */

/** Cursor of a pass not started yet. */
export const WALK_START = 'START';
/** Cursor of a pass whose last page is done. */
export const WALK_END = 'END';

/** Where a walk stands, as stored on its subject item. */
export interface WalkState {
  /** WALK_START, WALK_END, or the key (JSON) after which the next page starts. */
  walkCursor: string;
  /** The pass (0-based): a pass that changed something is followed by another, for writes that landed behind the cursor. */
  walkPass: number;
  /** Items changed in this pass so far. */
  walkChanged: number;
}

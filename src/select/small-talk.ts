// Small talk selects nothing (issue 26): a greeting, thanks or chit-chat names too little task
// (tokenize.ts contentWeight below CUTOFF.minContent) for any tool to be offered.
import type { Session } from '../policy/session.js';
import { isFollowUp } from './context.js';
import { CUTOFF } from './shape.js';
import { contentWeight } from './tokenize.js';

/**
 * Whether `query` names too little task to select anything: a greeting, thanks, chit-chat. A
 * tool's id (`isToolId`), and a follow-up that leaves the task to the session's earlier turns
 * ("and tomorrow?"), are never small talk.
 */
export function isSmallTalk(query: string, session: Session | undefined, isToolId: (id: string) => boolean): boolean {
  if (contentWeight(query) >= CUTOFF.minContent) return false;
  if (isToolId(query.trim())) return false;
  return !(session?.events.length && isFollowUp(query));
}
